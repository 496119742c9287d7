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
