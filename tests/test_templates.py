"""The templates' environment: Flask's, which is Jinja's ordinary one (its own template and
context classes, autoescaping for HTML), with Flask-Babel's words and the indentation of the
sources taken out when they are compiled."""

from __future__ import annotations

import flask.templating
import jinja2
import jinja2.runtime


def test_the_templates_render_through_jinjas_ordinary_environment(app):
    environment = app.jinja_env
    assert type(environment) is flask.templating.Environment
    assert environment.template_class is jinja2.Template
    assert environment.context_class is jinja2.runtime.Context
    assert environment.finalize is None
    assert environment.autoescape("page.html") is True  # Flask's choice: HTML is escaped
    page = environment.get_template("base.html")
    assert type(page) is jinja2.Template
    assert {"_", "url_for", "csrf_token", "can_edit"} <= set(environment.globals)
    template = environment.from_string("{{ name }}|{{ mark }}|{{ 7 }}|{{ '<b>' | safe }}")
    with app.test_request_context("/"):
        said = template.render(name="<b>Anna & 'Bruno'</b>", mark="\"x")
    assert said == ("&lt;b&gt;Anna &amp; &#39;Bruno&#39;&lt;/b&gt;|&#34;x|7|<b>")


def test_the_templates_words_are_flask_babels(app):
    """A template's ``_()``: the language in force decides, ``%%`` is a percent sign, and
    what is put into a word is escaped."""
    from flask_babel import force_locale

    template = app.jinja_env.from_string(
        "{{ _('Dealer') }}|{{ _('95%% interval') }}|"
        "{{ _('Cards or points in hand of %(name)s', name=who) }}")
    with app.test_request_context("/", headers={"Accept-Language": "it"}):
        assert template.render(who="Ugo") == \
            "Mazziere|Intervallo al 95%|Carte o punti in mano a Ugo"
        with force_locale("en"):
            assert template.render(who="<Ugo>") == \
                "Dealer|95% interval|Cards or points in hand of &lt;Ugo&gt;"
        assert template.render(who="Ugo").startswith("Mazziere|")


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
