"""The reading of JavaScript that measures the web client: braces in strings, templates, regular
expressions and comments are not the code's, and every kind of function is found and spanned."""

from __future__ import annotations

from tests.service.javascript import Function, functions, imports, tokens


def test_braces_inside_strings_templates_regular_expressions_and_comments_are_skipped() -> None:
    source = '''const a = "{"; // }
const b = `x ${ { y: "}" }.y } {`; /* { */
const c = value.replace(/[{}]/g, "") / 2;
'''
    punctuation = "".join(token.text for token in tokens(source) if token.kind == "punctuation")
    assert punctuation.count("{") == punctuation.count("}") == 1  # the object inside the template's ${}
    assert [token.line for token in tokens(source) if token.text == "c"] == [3]


def test_each_kind_of_function_is_found_with_its_lines() -> None:
    source = '''export function drawTable(view) {
  const open = (asked) => () => ui.redraw(asked);
  if (view.you) {
    for (const x of y) f(x);
  }
  return h("div", {
    onclick: async (event) => {
      event.preventDefault();
    },
  });
}
const pairs = {
  method(a, b) {
    return a;
  },
};
items.map((item) =>
  h("li", {}, item));
'''
    assert functions(source) == [
        Function("drawTable", 1, 11),
        Function("open", 2, 2),
        Function("(anonymous)", 2, 2),
        Function("onclick", 7, 9),
        Function("method", 13, 15),
        Function("(anonymous)", 17, 18),
    ]


def test_a_long_function_is_measured_whole_with_the_functions_it_holds() -> None:
    body = "\n".join(f"  const line{n} = () => {n};" for n in range(59))
    (long,) = [f for f in functions(f"function long() {{\n{body}\n}}\n") if f.name == "long"]
    assert long.lines == 61


def test_imports_are_the_paths_written_after_from() -> None:
    source = 'import * as api from "../api.js";\nimport {\n  fill,\n  h,\n} from "../dom.js";\nconst x = "from";\n'
    assert imports(source) == ["../api.js", "../dom.js"]
