/* 校正 on the reading page: select a span of one piece (橫排 or 直排) and a 「校正」 button
   opens the proposal form with the section, the piece and the code-point offsets of the span
   in the piece's text as read (corrections/views.py). Without JavaScript, each section's
   「校正」 link opens the same form. Offsets count code points (a character outside the
   BMP is one), as the server does; labels, source tags, page marks and correction marks
   are not text of the piece and are skipped. */
/* A refused form's error summary (templates/corrections/_error_summary.html): focused as the
   page opens, and each of its links puts the focus in the field it names (a link to an
   input's id only scrolls to it), as GOV.UK's error summary does. */
(function () {
  "use strict";
  var summary = document.getElementById("error-summary");
  if (!summary) return;
  if (document.activeElement !== summary) summary.focus();
  summary.addEventListener("click", function (event) {
    var link = event.target.closest("a[href^='#']");
    var field = link && document.getElementById(link.getAttribute("href").slice(1));
    if (!field) return;
    event.preventDefault();
    field.scrollIntoView({block: "center"});
    field.focus();
  });
})();
(function () {
  "use strict";
  var m = location.pathname.match(/^\/works\/([^/]+)\/juan\/(\d+)\//);
  if (!m) return;
  var base = "/corrections/propose/" + m[1] + "/" + m[2] + "/";
  var SKIP = ".visually-hidden, .layer-tag, .source, .pb, .corr-mark, .propose-button, .section-number, input, label";
  var PIECE = /^s(\d+)-p(\d+)$/;

  function pieceOf(node) {
    var el = node.nodeType === 1 ? node : node.parentElement;
    while (el && !(el.id && PIECE.test(el.id))) el = el.parentElement;
    return el;
  }
  function cpLength(s) { return Array.from(s).length; }
  /* Code points of the piece's own text before (node, offset): the contents from the
     piece's start to there, without what is not its text. */
  function offsetIn(piece, node, offset) {
    var r = document.createRange();
    r.setStart(piece, 0);
    r.setEnd(node, offset);
    var part = r.cloneContents();
    part.querySelectorAll(SKIP).forEach(function (el) { el.remove(); });
    return cpLength(part.textContent);
  }
  var button = document.createElement("a");
  button.className = "propose-button";
  button.textContent = "校正";
  button.hidden = true;
  document.addEventListener("DOMContentLoaded", function () {  // inside <main>: all content in landmarks
    (document.getElementById("main") || document.body).appendChild(button);
  });

  function update() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || sel.rangeCount !== 1) { button.hidden = true; return; }
    var range = sel.getRangeAt(0);
    var piece = pieceOf(range.startContainer);
    if (!piece || piece !== pieceOf(range.endContainer)) { button.hidden = true; return; }
    var ids = piece.id.match(PIECE);
    var start = offsetIn(piece, range.startContainer, range.startOffset);
    var end = offsetIn(piece, range.endContainer, range.endOffset);
    if (end <= start) { button.hidden = true; return; }
    button.href = base + "?section=" + ids[1] + "&piece=" + ids[2] + "&start=" + start + "&end=" + end;
    var box = range.getBoundingClientRect();
    button.hidden = false;
    var origin = button.offsetParent ? button.offsetParent.getBoundingClientRect() : {top: -window.scrollY, left: -window.scrollX};
    // above the selection's first line (the 相關段落 link goes under its end, and under a short
    // page's text stands the section's own 校正 link); under it when there is no room above
    var above = box.top - button.offsetHeight - 4;
    button.style.top = ((above >= 0 ? above : box.bottom + 4) - origin.top) + "px";
    button.style.left = (box.left - origin.left) + "px";
  }
  document.addEventListener("selectionchange", function () { window.requestAnimationFrame(update); });
})();
