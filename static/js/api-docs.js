/* The API documentation page (templates/api/swagger_ui.html): what Swagger UI draws, made to
   pass axe-core's WCAG 2 A/AA rules. Swagger UI (React) redraws parts of the page as it is
   used, so the attributes are set again after each change (a MutationObserver):
   - its title (an h1) is a level 2 heading under the page's own h1, so that the headings of
     the endpoints (h3) follow in order;
   - the part it draws above its main landmark (title, description) is a named region;
   - a response body or example, which scrolls, can be reached from the keyboard (tabindex);
   - a parameter's list of examples, and a parameter's list of choices, has a name;
   - the endpoints the page listed before Swagger UI had the schema are hidden once it has drawn them. */
(() => {
  "use strict";
  const root = document.getElementById("swagger-ui");
  if (!root) return;
  // the endpoints the server listed (api.docs, the page's main landmark meanwhile), shown until
  // Swagger UI has drawn its own, in its own main landmark
  const fallback = document.getElementById("api-docs-fallback");
  const fix = () => {
    if (fallback && !fallback.hidden && root.querySelector("main, .opblock")) fallback.hidden = true;
    for (const h of root.querySelectorAll(".info h1.title:not([aria-level])")) h.setAttribute("aria-level", "2");
    for (const el of root.querySelectorAll(".information-container:not([role])")) {
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", "About the API");
    }
    for (const pre of root.querySelectorAll("pre:not([tabindex])")) pre.setAttribute("tabindex", "0");
    for (const select of root.querySelectorAll("select.examples-select-element:not([aria-label])")) {
      const row = select.closest("tr[data-param-name]");
      select.setAttribute("aria-label", row ? `Examples of ${row.dataset.paramName}` : "Examples");
    }
    // a parameter's own choices (an enum: sort, exact, layer) in 「Try it out」, named by the parameter
    for (const select of root.querySelectorAll("tr[data-param-name] select:not([aria-label])")) {
      select.setAttribute("aria-label", select.closest("tr[data-param-name]").dataset.paramName);
    }
  };
  new MutationObserver(fix).observe(root, {childList: true, subtree: true});
  fix();
})();
