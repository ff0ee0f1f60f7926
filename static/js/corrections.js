/* 校正 on the reading page: select a span of one piece (橫排 or 直排) and a 「校正」 button
   opens the proposal form with the section, the piece and the code-point offsets of the span
   in the piece's text as read (corrections/views.py). Without JavaScript, each section's
   「校正」 link opens the same form. Offsets count code points of the text as stored (a
   character outside the BMP is one, a gaiji shown 〓 its entity), as the server does; labels,
   source tags, page marks, correction marks, a note's number and an annotation's note are not
   text of the piece and are skipped. */
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
/* The proposal form (templates/corrections/propose.html, corrections/forms.py): each field
   after the place belongs to some kinds (data-kinds); without JavaScript all are shown, each
   naming its kinds. Here only the chosen kind's fields are shown, and the others are disabled,
   so that the form sends only what the kind reads (tags typed for an annotation are not sent
   with a text correction); a field read as different things by different kinds takes the
   chosen kind's label (data-label-<kind>: 改為 for a text correction, 注記 for an annotation); a field
   a structure correction reads with one structure alone (data-structure: the layer of 此行是正文) is
   shown for that structure only. */
(function () {
  "use strict";
  var form = document.getElementById("proposal-form");
  var kind = form && form.querySelector("select[name=kind]");
  if (!kind) return;
  var names = [];
  form.querySelectorAll(".kind-field .field-name").forEach(function (el) { names.push([el, el.textContent]); });
  var structure = form.querySelector("select[name=structure]");
  function show() {
    var chosen = kind.value;
    form.querySelectorAll(".kind-field[data-kinds]").forEach(function (box) {
      var on = box.getAttribute("data-kinds").split(" ").indexOf(chosen) >= 0;
      var only = box.getAttribute("data-structure");
      if (on && only && chosen === "structure" && structure) on = structure.value === only;
      box.hidden = !on;
      box.querySelectorAll("input, select, textarea").forEach(function (control) { control.disabled = !on; });
    });
    names.forEach(function (pair) {
      pair[0].textContent = pair[0].getAttribute("data-label-" + chosen) || pair[1];
    });
  }
  form.classList.add("by-kind");
  kind.addEventListener("change", show);
  if (structure) structure.addEventListener("change", show);
  window.addEventListener("pageshow", show);  // a form restored by the back button keeps its kind
  show();
})();
(function () {
  "use strict";
  var m = location.pathname.match(/^\/works\/([^/]+)\/juan\/(\d+)\//);
  if (!m) return;
  var base = "/corrections/propose/" + m[1] + "/" + m[2] + "/";
  /* what stands in a piece's element but is not its text: a 旁注 box's note number, an accepted annotation
     placed by its characters (its note, tags and author), besides the labels and marks */
  var SKIP = ".visually-hidden, .layer-tag, .source, .pb, .corr-mark, .propose-button, .section-number, input, label, " +
    ".note-number, .annotation";
  /* a piece's element, or a part of one from code point N (s1-p3-29: a table cell's part, or a
     part a layer correction of part of the piece splits off), whose offsets count from N */
  var PIECE = /^s(\d+)-p(\d+)(?:-(\d+))?$/;

  function pieceOf(node) {
    var el = node.nodeType === 1 ? node : node.parentElement;
    while (el && !(el.id && PIECE.test(el.id))) el = el.parentElement;
    return el;
  }
  function cpLength(s) { return Array.from(s).length; }
  /* Code points of the piece's own text as stored before (node, offset): the contents from the
     piece's start to there, without what is not its text, each 〓 read as what the text stores
     (its gaiji entity, &KR1969; of 8 code points, or U+0001), so that a place after a gaiji is
     the server's (corrections/positions.py). A selection ending inside a 〓 takes it whole. */
  function offsetIn(piece, node, offset) {
    var r = document.createRange();
    r.setStart(piece, 0);
    var gaiji = node.nodeType === 3 && node.parentElement && node.parentElement.closest(".gaiji");
    if (gaiji && offset > 0) r.setEndAfter(gaiji); else if (gaiji) r.setEndBefore(gaiji); else r.setEnd(node, offset);
    var part = r.cloneContents();
    part.querySelectorAll(SKIP).forEach(function (el) { el.remove(); });
    part.querySelectorAll(".gaiji").forEach(function (el) { el.textContent = el.getAttribute("data-code") || "\u0001"; });
    return cpLength(part.textContent);
  }
  var button = document.createElement("a");
  button.className = "propose-button";
  button.textContent = "校正";
  button.hidden = true;
  document.addEventListener("DOMContentLoaded", function () {  // inside <main>: all content in landmarks
    (document.getElementById("main") || document.body).appendChild(button);
  });

  /* A heading the page shows that is no piece's text: a chapter's heading (over the section that follows it),
     a section's 右… closer, a section page's title. Its own 「校正」 opens the form at that section with
     ?heading=, which fills in what may be proposed of it and says what it does (corrections/headings.py). */
  var HEADING = "h2.chapter-title, h3.closer, h1.section-page-title";
  function headingOf(node) {
    var el = node.nodeType === 1 ? node : node.parentElement;
    return el && el.closest(HEADING);
  }
  function headingPlace(head) {
    var sections = Array.prototype.filter.call(document.querySelectorAll("section.section[id]"), function (s) {
      return head.matches("h1") || head.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    var section = head.matches("h3") ? head.closest("section.section[id]") : sections[0];
    var kind = head.matches("h2") ? "chapter" : head.matches("h3") ? "closer" : "title";
    return section ? "?section=" + section.id.slice(1) + "&heading=" + kind : null;
  }
  function update() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || sel.rangeCount !== 1) { button.hidden = true; return; }
    var range = sel.getRangeAt(0);
    var head = headingOf(range.startContainer);
    var asked = head && head === headingOf(range.endContainer) && range.toString().trim() && headingPlace(head);
    if (asked) {
      button.href = base + asked;
      button.hidden = false;
      place(button, range);
      return;
    }
    var piece = pieceOf(range.startContainer);
    if (!piece || piece !== pieceOf(range.endContainer)) { button.hidden = true; return; }
    var ids = piece.id.match(PIECE);
    var from = ids[3] ? parseInt(ids[3], 10) : 0;
    var start = from + offsetIn(piece, range.startContainer, range.startOffset);
    var end = from + offsetIn(piece, range.endContainer, range.endOffset);
    if (end <= start) { button.hidden = true; return; }
    button.href = base + "?section=" + ids[1] + "&piece=" + ids[2] + "&start=" + start + "&end=" + end;
    button.hidden = false;
    place(button, range);
  }
  /* What the button must not cover besides the selection where it can help it: the headings
     and labels by the text (a chapter's title, a section's closer, the 經 or 注 that heads a
     passage, the section's number) and the links beside it (校正, 引用, 相關段落). Above a
     passage's first line under 經 it lay on 經 (at 800 and 1280 px), on the section's number
     and on the 引用 of the section before. */
  var MARKS = "h1, h2, h3, .label, .layer-label, .section-number, a.propose, .cite summary, .span-parallels:not([hidden])";
  /* Put the button where it covers nothing of the selection nor of those: above the start of its first
     line (the 相關段落 link goes under its end, and under a short page's text stands the
     section's own 校正 link), else under its last line, else after its end, kept inside the
     window (near its right edge the button would shrink and wrap over the text). Each place is
     tried against the selection's boxes, line by line (its one bounding box takes in whole
     lines that it does not cover). */
  function place(button, range) {
    var rects = Array.prototype.filter.call(range.getClientRects(), function (r) { return r.width > 0 && r.height > 0; });
    if (!rects.length) rects = [range.getBoundingClientRect()];
    var first = rects[0], last = rects[rects.length - 1];
    var origin = button.offsetParent ? button.offsetParent.getBoundingClientRect() : {top: -window.scrollY, left: -window.scrollX};
    var w = button.offsetWidth, h = button.offsetHeight, room = document.documentElement.clientWidth;
    function inside(left) { return Math.max(0, Math.min(left, room - w - 2)); }
    var places = [[first.top - h - 4, inside(first.left)], [last.bottom + 4, inside(last.left)],
                  [last.top, inside(last.right + 4)], [first.top, inside(first.left - w - 4)]];
    function meets(boxes, top, left) {
      return boxes.some(function (r) {
        return Math.min(r.right, left + w) - Math.max(r.left, left) > 0 && Math.min(r.bottom, top + h) - Math.max(r.top, top) > 0;
      });
    }
    function covers(top, left) { return meets(rects, top, left); }
    // the words of the headings, labels and links near the selection (their text, not their whole boxes)
    var marks = [];
    document.querySelectorAll(MARKS).forEach(function (el) {
      if (el.closest(".visually-hidden")) return;
      var r = document.createRange();
      r.selectNodeContents(el);
      Array.prototype.forEach.call(r.getClientRects(), function (box) {
        if (box.width > 0 && box.bottom > first.top - 3 * h && box.top < last.bottom + 3 * h) marks.push(box);
      });
    });
    function clear(p) { return !covers(p[0], p[1]) && !meets(marks, p[0], p[1]); }
    var chosen = places.filter(function (p) { return p[0] >= 0 && clear(p); })[0]
      || places.filter(function (p) { return p[0] >= 0 && !covers(p[0], p[1]); })[0]
      || places.filter(function (p) { return !covers(p[0], p[1]); })[0] || places[0];
    button.style.top = (chosen[0] - origin.top) + "px";
    button.style.left = (chosen[1] - origin.left) + "px";
  }
  function follow() { if (!button.hidden) window.requestAnimationFrame(update); }
  // a text that moves under the selection (a 直排 column scrolled, the window turned) takes the button with it
  window.addEventListener("resize", follow);
  document.addEventListener("scroll", follow, true);
  document.addEventListener("selectionchange", function () { window.requestAnimationFrame(update); });
})();
