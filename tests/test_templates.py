"""The templates' own class (web/templating.Template): an imported template is built once,
and one imported by a template with globals of its own still sees them, as in Jinja."""

from __future__ import annotations

import jinja2

from scorekeeper.web.templating import Template


def test_an_imported_template_is_built_once_unless_the_importer_has_globals(monkeypatch):
    environment = jinja2.Environment(loader=jinja2.DictLoader({
        "_twice.html": "{% macro twice(n) %}{{ n * factor }}{% endmacro %}",
        "page.html": '{% from "_twice.html" import twice %}{{ twice(2) }}',
        "own.html": '{% from "_twice.html" import twice %}{{ twice(3) }}{{ mark }}',
    }))
    environment.template_class = Template
    environment.globals["factor"] = 2
    built: list[str | None] = []
    make_module = Template.make_module

    def counted(self, *args, **kwargs):
        built.append(self.name)
        return make_module(self, *args, **kwargs)

    monkeypatch.setattr(Template, "make_module", counted)
    page = environment.get_template("page.html")
    assert isinstance(page, Template)
    assert [page.render(), page.render(), page.render()] == ["4", "4", "4"]
    assert built == ["_twice.html"]
    # A template with a global of its own: the imported one is built for it each time.
    own = environment.get_template("own.html", globals={"mark": "!"})
    assert [own.render(), own.render()] == ["6!", "6!"]
    assert built == ["_twice.html"] * 3


def test_a_word_said_without_variables_is_translated_once_per_language(app):
    """The templates' ``_()`` keeps the Markup of a word without variables for each language:
    the language in force still decides, ``%%`` is still a percent sign, and a word with
    variables is formatted each time."""
    from flask_babel import force_locale

    say = app.jinja_env.globals["_"]
    with app.test_request_context("/", headers={"Accept-Language": "it"}):
        italian = say("Dealer")
        assert italian == "Mazziere" and say("Dealer") is italian
        assert say("95%% interval") == "Intervallo al 95%"
        with force_locale("en"):
            assert say("Dealer") == "Dealer"
            assert say("Bid of %(name)s", name="<Ugo>") == "Bid of &lt;Ugo&gt;"
        assert say("Dealer") is italian


def test_the_apps_templates_take_the_globals_flat_and_call_as_jinja_does(app):
    """Each template's globals are one dict holding every global of the app (Jinja's
    ChainMap is copied key by key at every render); a call from a template still hands a
    ``pass_context`` function its context, passes keywords, and turns a StopIteration into
    an undefined value, as Jinja's own context does."""
    from collections import ChainMap

    from jinja2 import pass_context

    environment = app.jinja_env
    page = environment.get_template("base.html")
    assert type(page.globals) is dict and not isinstance(page.globals, ChainMap)
    assert environment.get_template("matches/show.html").globals is page.globals  # shared
    assert {"_", "url_for", "csrf_token", "can_edit"} <= page.globals.keys()

    def exhausted():
        raise StopIteration

    template = environment.from_string(
        "{% macro twice(n) %}{{ n * 2 }}{% endmacro %}"
        "{{ named() }}|{{ joined('a', b='c') }}|{{ twice(4) }}|{{ exhausted() is undefined }}")
    with app.test_request_context("/"):
        said = template.render(named=pass_context(lambda context: context["marker"]),
                               joined=lambda a, b: a + b, exhausted=exhausted, marker="ctx")
    assert said == "ctx|ac|8|True"


def test_the_indentation_of_a_template_is_not_sent_but_that_of_a_value_is(app):
    """A template's own indentation is taken out when it is compiled, but for one space
    where a tag ended the line before (Jinja drops that newline, and the space is then
    all that parts two words); text put into it keeps its own (a match's JSON in a <pre>)."""
    template = app.jinja_env.from_string(
        "<ul>\n    <li>\n\t  {{ items[0] }}</li>\n    {% for item in items %}\n"
        "    <li>{{ item }}</li>\n    {% endfor %}\n</ul>\n"
        "<p>{{ day }}{% if place %} · {{ place }}{% endif %}\n     · {{ state }}</p>\n"
        "<pre>{{ text }}</pre>")
    with app.test_request_context("/"):
        html = template.render(items=["a", "b"], day="2026-12-03", place="", state="Finished",
                               text="{\n  a: 1\n}")
    assert html == ("<ul>\n<li>\na</li>\n <li>a</li>\n <li>b</li>\n</ul>\n"
                    "<p>2026-12-03 · Finished</p>\n<pre>{\n  a: 1\n}</pre>")


def test_the_codes_words_are_looked_up_once_a_request_and_language(app, monkeypatch):
    """``gettext`` from the code (a notice, the history's words) finds the translations the
    request looked up already, as the templates' words do; ``force_locale`` still decides."""
    import flask_babel

    looked: list[str] = []
    lookup = flask_babel.Domain.get_translations

    def counted(self):
        looked.append(str(flask_babel.get_locale()))
        return lookup(self)

    monkeypatch.setattr(flask_babel.Domain, "get_translations", counted)
    with app.test_request_context("/", headers={"Accept-Language": "it"}):
        said = [flask_babel.gettext("Dealer") for _ in range(5)]
        with flask_babel.force_locale("en"):
            english = [flask_babel.gettext("Dealer") for _ in range(3)]
        again = flask_babel.gettext("Dealer")
    assert said == ["Mazziere"] * 5 and english == ["Dealer"] * 3 and again == "Mazziere"
    assert looked == ["it", "en", "it"]
