/* The API reference (templates/api/redoc.html): what ReDoc draws, made to pass axe-core's WCAG 2
   A/AA rules, with no image from another host (Redocly's logo). ReDoc (React) draws the page after loading the schema and redraws parts as it is
   used, so the attributes are set again after each change (a MutationObserver):
   - a menu item is named by its own words (ReDoc names it by the operation's id, root_retrieve,
     while it shows 「GET root_retrieve」: axe-core's label-content-name-mismatch);
   - its small headings (h5 「Authorizations:」, 「Request Body schema:」) are a level below the
     operation's h2, so that the headings follow in order. */
(() => {
  "use strict";
  // ReDoc's menu ends with 「API docs by Redocly」 and Redocly's logo, which it asks Redocly's
  // server for (no option of ReDoc leaves it out). The site loads nothing from other hosts (its
  // Content-Security-Policy refused it, an error on every load): an image address on another
  // host is dropped before any request, the image fails at once, and ReDoc leaves it out.
  const foreign = (value) => /^(https?:)?\/\//i.test(String(value)) && new URL(String(value), location.href).origin !== location.origin;
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    return setAttribute.call(this, name, this instanceof HTMLImageElement && name.toLowerCase() === "src" && foreign(value) ? "" : value);
  };
  const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {...src, set(value) { src.set.call(this, foreign(value) ? "" : value); }});
  const fix = () => {
    for (const item of document.querySelectorAll('redoc [role="menuitem"][aria-label]')) item.removeAttribute("aria-label");
    for (const h of document.querySelectorAll("redoc h5:not([aria-level])")) h.setAttribute("aria-level", "3");
  };
  new MutationObserver(fix).observe(document.body, {childList: true, subtree: true});
  fix();
})();
