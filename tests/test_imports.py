"""The package's imports run one way: no module of crocbench imports, directly or through others, a module that
imports it back, counting every import statement of a module (those inside functions too, which run later but
still tie the two modules together).

The graph is read from the source (the abstract syntax tree of every module), not from what an import loads, so a
lazy import inside a function counts and nothing is executed. A module's edges go to each crocbench module an
import statement names: ``X.Y`` where ``from X import Y`` names a module ``Y``, and ``X`` where ``Y`` is a name ``X``
defines (a function, a class: a package's ``__init__`` runs for it); ``import X`` names ``X``.
A cycle is a strongly connected component of two or more modules, or a module that imports itself.
"""

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "crocbench"


def _modules() -> dict:
    """``{module name: path}`` of every module of the package."""
    found = {}
    for path in sorted((SOURCE / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _edges(name: str, path: Path, modules: dict) -> set:
    """The package's modules that ``name``'s import statements name (see the module's docstring)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            named = {f"{source}.{alias.name}" for alias in node.names}
            targets |= named
            if not named <= modules.keys():  # a name the module (a package's __init__) defines
                targets.add(source)
    return {t for t in targets if t in modules and t != name} | ({name} if name in targets else set())


def import_graph() -> dict:
    """``{module: set of modules it imports}`` over the whole package."""
    modules = _modules()
    return {name: _edges(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict) -> list:
    """The graph's cycles: its strongly connected components of two or more modules (or one importing itself),
    each a sorted tuple of module names (Tarjan's algorithm, iterative)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.append(tuple(sorted(component)))
    return sorted(found)


def test_the_cycle_finder_finds_hand_made_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "d"}, "e": {"f"}, "f": set()}
    assert cycles(graph) == [("a", "b", "c"), ("d",)]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_counts_imports_inside_functions(tmp_path):
    package = tmp_path / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text("def f():\n    from .two import g\n    return g\n")
    (package / "two.py").write_text("from crocbench import one, VERSION\n")  # a module and a name of __init__
    modules = {
        "crocbench": package / "__init__.py",
        "crocbench.one": package / "one.py",
        "crocbench.two": package / "two.py",
    }
    graph = {name: _edges(name, path, modules) for name, path in modules.items()}
    assert graph == {
        "crocbench": set(),
        "crocbench.one": {"crocbench.two"},
        "crocbench.two": {"crocbench", "crocbench.one"},
    }
    assert cycles(graph) == [("crocbench.one", "crocbench.two")]


def test_no_module_of_the_package_imports_itself_back():
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)
