"""A real HTTP server on 127.0.0.1 for the data sources' tests (nothing leaves the machine).

Paths: ``/good.csv`` (CONTENT), ``/corrupt.csv`` (one byte changed), ``/slow.csv`` (CONTENT after 0.3 s),
``/flaky.csv`` (503, then CONTENT), ``/dropped.csv`` (announces CONTENT, sends half, closes: always),
``/cut_once.csv`` (the same cut on the first request only, then CONTENT); anything else 404. ``Handler.hits``
counts the requests per path.
"""

import hashlib
import http.server
import threading
import time

CONTENT = b"smiles,activity\nCCO,CI\n" * 5000
SHA = hashlib.sha256(CONTENT).hexdigest()


class Handler(http.server.BaseHTTPRequestHandler):
    hits: dict = {}

    def log_message(self, *args):  # keep the test output clean
        pass

    def _cut(self):
        """Announce the whole file, send half of it, and hang up."""
        self.send_response(200)
        self.send_header("Content-Length", str(len(CONTENT)))
        self.end_headers()
        self.wfile.write(CONTENT[: len(CONTENT) // 2])
        self.wfile.flush()
        self.close_connection = True

    def do_GET(self):
        n = Handler.hits[self.path] = Handler.hits.get(self.path, 0) + 1
        if self.path == "/good.csv":
            body = CONTENT
        elif self.path == "/corrupt.csv":
            body = CONTENT[:-1] + b"X"
        elif self.path == "/slow.csv":  # the good file, after a pause: concurrent clients overlap
            time.sleep(0.3)
            body = CONTENT
        elif self.path == "/flaky.csv" and n == 1:
            self.send_error(503)
            return
        elif self.path in ("/flaky.csv", "/cut_once.csv"):
            if self.path == "/cut_once.csv" and n == 1:
                return self._cut()
            body = CONTENT
        elif self.path == "/dropped.csv":
            return self._cut()
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve():
    """Start the server in a thread; returns ``(base_url, stop)``."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()

    def stop():
        httpd.shutdown()
        httpd.server_close()

    return f"http://127.0.0.1:{httpd.server_address[1]}", stop
