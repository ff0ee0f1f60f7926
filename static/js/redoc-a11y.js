/* The API reference (templates/api/redoc.html): what ReDoc draws, made to pass axe-core's WCAG 2
   A/AA rules. ReDoc (React) draws the page after loading the schema and redraws parts as it is
   used, so the attributes are set again after each change (a MutationObserver):
   - a menu item is named by its own words (ReDoc names it by the operation's id, root_retrieve,
     while it shows 「GET root_retrieve」: axe-core's label-content-name-mismatch);
   - its small headings (h5 「Authorizations:」, 「Request Body schema:」) are a level below the
     operation's h2, so that the headings follow in order. */
(() => {
  "use strict";
  const fix = () => {
    for (const item of document.querySelectorAll('redoc [role="menuitem"][aria-label]')) item.removeAttribute("aria-label");
    for (const h of document.querySelectorAll("redoc h5:not([aria-level])")) h.setAttribute("aria-level", "3");
  };
  new MutationObserver(fix).observe(document.body, {childList: true, subtree: true});
  fix();
})();
