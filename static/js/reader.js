/* 經注閱讀: enhancements for reading pages. Everything here is optional: every mode, the
   citation and the character lookup (/chars/) work through plain links without it.
   No inline code or styles (Content-Security-Policy): the page's own markup drives it. */
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");

  var textBody = document.querySelector(".text-body");
  var main = document.getElementById("main");
  var vertical = !!(main && main.classList.contains("layout-vertical"));

  // ---------------------------------------------------------------- 簡體: this script's words too
  // A page in simplified display (lang zh-Hans: pages.simplified converts every word the server
  // wrote) gets the words written here simplified as well; w() gives each as the page's script
  // wants it. tests/test_reading_modes.py checks that every word here that the conversion
  // changes has its entry, as reader.display.to_simplified gives it.
  var SIMPLIFIED = {
      "已複製": "已复制",
      "請按 Ctrl+C": "请按 Ctrl+C",
      "已複製引用：": "已复制引用：",
      "已選取引用，請按 Ctrl+C 複製": "已选取引用，请按 Ctrl+C 复制",
      " 處，共 ": " 处，共 ",
      " 處": " 处",
      "關閉": "关闭",
      "又讀": "又读",
      "釋義": "释义",
      "又見": "又见",
      "繁體": "繁体",
      "簡體": "简体",
      "異體": "异体",
      "相關字": "相关字",
      "顯示": "显示",
      "簡體作「": "简体作「",
      "詳細": "详细",
      "檢索「": "检索「",
      "相關段落": "相关段落",
      "（所選 ": "（所选 ",
      "查找所選文字在他書中之相關段落 (p)": "查找所选文字在他书中之相关段落 (p)",
      "已選 ": "已选 ",
      " 字，按 p 查相關段落": " 字，按 p 查相关段落"
  };
  var simplifiedPage = root.lang === "zh-Hans";
  function w(text) { return (simplifiedPage && SIMPLIFIED[text]) || text; }

  // ---------------------------------------------------------------- a live region for short messages
  var live = document.createElement("div");
  live.className = "visually-hidden";
  live.setAttribute("aria-live", "polite");
  document.body.appendChild(live);
  function say(message) { live.textContent = ""; window.setTimeout(function () { live.textContent = message; }, 30); }

  // ---------------------------------------------------------------- copying the citation
  function copyText(text, fallbackNode) {
    function legacy() {
      var ok = false;
      if (fallbackNode) {
        var range = document.createRange();
        range.selectNodeContents(fallbackNode);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      }
      return Promise.resolve(ok);
    }
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, legacy);
    }
    return legacy();
  }

  function copyCitation(button) {
    var node = document.getElementById(button.getAttribute("data-copy"));
    if (!node) return;
    var text = node.textContent.trim();
    copyText(text, node).then(function (ok) {
      var label = button.getAttribute("data-label") || button.textContent;
      button.setAttribute("data-label", label);
      button.textContent = ok ? w("已複製") : w("請按 Ctrl+C");
      button.classList.toggle("done", ok);
      say(ok ? w("已複製引用：") + text : w("已選取引用，請按 Ctrl+C 複製"));
      window.setTimeout(function () { button.textContent = label; button.classList.remove("done"); }, 2000);
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("button.copy[data-copy]"), function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { copyCitation(button); });
  });

  // ---------------------------------------------------------------- highlights: scroll to the match, n / N
  var marks = textBody ? Array.prototype.slice.call(textBody.querySelectorAll("mark")) : [];
  var currentMark = -1;

  function reveal(el) {
    // a mark inside a folded note (旁注): open the note first
    var ref = el.closest(".note-ref");
    if (ref) {
      var box = ref.querySelector(".note-toggle");
      if (box && !box.checked) box.checked = true;
    }
  }

  function showMark(i) {
    if (!marks.length) return;
    currentMark = (i + marks.length) % marks.length;
    marks.forEach(function (m) { m.classList.remove("current-mark"); });
    var m = marks[currentMark];
    reveal(m);
    m.classList.add("current-mark");
    m.scrollIntoView({ block: "center", inline: "center" });
    say("第 " + (currentMark + 1) + w(" 處，共 ") + marks.length + w(" 處"));
  }

  function firstMarkAfterTarget() {
    var target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) {
      var inside = target.querySelector("mark") || (target.tagName === "MARK" ? target : null);
      if (inside) return marks.indexOf(inside);
      for (var i = 0; i < marks.length; i++) {
        if (target.compareDocumentPosition(marks[i]) & Node.DOCUMENT_POSITION_FOLLOWING) return i;
      }
      return -1;
    }
    return marks.length ? 0 : -1;
  }

  var navType = "navigate";
  try { navType = performance.getEntriesByType("navigation")[0].type; } catch (e) { /* old browsers */ }
  function scrollToStart() {
    if (navType === "back_forward" || navType === "reload") return;
    var i = firstMarkAfterTarget();
    if (i >= 0) {
      currentMark = i;
      reveal(marks[i]);
      marks[i].classList.add("current-mark");
      marks[i].scrollIntoView({ block: "center", inline: "center" });
    } else if (location.hash) {
      var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) target.scrollIntoView({ block: "start", inline: "start" });
    }
  }
  if (document.readyState === "complete") scrollToStart();
  else window.addEventListener("load", scrollToStart);

  Array.prototype.forEach.call(document.querySelectorAll('[data-action="next-mark"]'), function (b) {
    b.addEventListener("click", function () { showMark(currentMark + 1); });
  });

  // ---------------------------------------------------------------- display links: the place kept (#s3-p4)
  // A display link (and its shortcut key) carries every setting the page shows and the page's
  // other parameters (the server's link: reader.display.display_controls); the place read is
  // kept by adding the fragment when it is followed.
  Array.prototype.forEach.call(document.querySelectorAll(".display-controls a[href][data-setting]"), function (a) {
    a.addEventListener("click", function () {
      if (location.hash && a.href.indexOf("#") < 0) a.href = a.href + location.hash;
    });
  });

  // ---------------------------------------------------------------- sections: where you are, j / k
  var sections = textBody ? Array.prototype.slice.call(textBody.querySelectorAll("section.section")) : [];
  var tocLinks = {};
  Array.prototype.forEach.call(document.querySelectorAll('.toc a[href^="#s"]'), function (a) {
    tocLinks[a.getAttribute("href").slice(1)] = a;
  });

  function startOffset(el) {
    // how far the section's start lies past the reading edge (top, or right in 直排 read
    // sideways; in 直排 set in strips down the page, the top)
    var r = el.getBoundingClientRect();
    if (vertical && !textBody.classList.contains("strips")) return textBody.getBoundingClientRect().right - r.right;
    return r.top;
  }

  var reachedAt = sections.length ? (parseFloat(getComputedStyle(sections[0]).scrollMarginTop) || 0) + 40 : 90;
  function currentIndex() {
    var idx = 0;
    for (var i = 0; i < sections.length; i++) {
      // a section brought into view stands at its scroll margin (5rem) plus its own top spacing
      if (startOffset(sections[i]) <= reachedAt) idx = i; else break;
    }
    return idx;
  }

  var current = null;
  function markCurrent(chosen) {
    if (!sections.length) return;
    var s = chosen || sections[currentIndex()];
    if (s === current) return;
    if (current && tocLinks[current.id]) tocLinks[current.id].removeAttribute("aria-current");
    current = s;
    if (tocLinks[s.id]) tocLinks[s.id].setAttribute("aria-current", "location");
  }
  if (sections.length > 1 && Object.keys(tocLinks).length) {
    var pending = false;
    var onScroll = function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; markCurrent(); });
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    if (vertical) textBody.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("load", function () { markCurrent(); });
    markCurrent();
  }

  function goSection(step) {
    if (sections.length > 1) {
      var i = currentIndex();
      if (step < 0 && startOffset(sections[i]) < -40) step = 0;  // back to the start of this one first
      var target = sections[Math.max(0, Math.min(sections.length - 1, i + step))];
      target.scrollIntoView({ block: "start", inline: "start" });
      history.replaceState(null, "", "#" + target.id);
      markCurrent(target);  // the section moved to is current, wherever its first line lands
      return;
    }
    follow(".section-pager a[rel=" + (step > 0 ? "next" : "prev") + "]");
  }

  function follow(selector) {
    var a = document.querySelector(selector);
    if (a) { a.click(); return true; }
    return false;
  }

  function cycleSetting(name, step) {
    var links = Array.prototype.slice.call(document.querySelectorAll('.display-controls a[data-setting="' + name + '"]'));
    if (!links.length) return;
    var at = links.findIndex(function (a) { return a.classList.contains("current"); });
    var next = links[Math.max(0, Math.min(links.length - 1, at + step))];
    if (name !== "size") next = links[(at + step + links.length) % links.length];
    if (next && next !== links[at]) next.click();
  }

  // ---------------------------------------------------------------- the display settings: folded on a phone
  // On a window 40rem wide or less the settings are folded under their summary (閱讀設定：夾注・橫排…)
  // so that the text comes first; wider they stand open with no summary (site.css). A browser
  // without ::details-content would keep them folded there: they are opened when the window is
  // wide, and folded again when it narrows (a phone turned back upright).
  var settings = document.getElementById("display-settings");
  var WIDE = window.matchMedia ? window.matchMedia("(min-width: 40.01rem)") : null;
  function openWhenWide() { if (settings && WIDE) settings.open = WIDE.matches; }
  if (settings && WIDE) {
    openWhenWide();
    if (WIDE.addEventListener) WIDE.addEventListener("change", openWhenWide);
  }

  // ---------------------------------------------------------------- 直排 on a phone: strips down the page
  // A window 40rem wide or less sets the vertical text in strips as wide as the text's box, one
  // under the other (CSS multi-column in vertical-rl: each column box is a strip, its columns of
  // characters read right to left, the text going on in the strip below), so that nothing is
  // read by scrolling sideways: the page scrolls down, as on a wide screen a reader goes on to the
  // left. Each strip is as tall as the window leaves (at most 34rem), so a column of characters
  // is read whole without scrolling. The box's height is the strips' (overflow columns are not
  // counted in a box's size): measured with one strip, then set to hold them all. Without
  // JavaScript, or wider, the text scrolls sideways in its box (site.css).
  var NARROW = window.matchMedia ? window.matchMedia("(max-width: 40rem)") : null;
  function setStrips() {
    var on = !!(NARROW && NARROW.matches);
    textBody.classList.toggle("strips", on);
    if (!on) {
      textBody.style.removeProperty("--strip");
      textBody.style.removeProperty("--strips-height");
      return;
    }
    var rem = parseFloat(getComputedStyle(root).fontSize) || 16;
    var strip = Math.floor(Math.max(12 * rem, Math.min(document.documentElement.clientHeight - 7 * rem, 34 * rem)));
    var cs = getComputedStyle(textBody);
    var gap = parseFloat(cs.columnGap) || 0, pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
    textBody.style.setProperty("--strip", strip + "px");
    textBody.style.setProperty("--strips-height", (strip + pad) + "px");  // the box's height holds its padding
    var n = Math.max(1, Math.ceil((textBody.scrollHeight - pad + gap - 2) / (strip + gap)));
    // a pixel more than n strips and their gaps: n columns, never n - 1 by a rounding
    textBody.style.setProperty("--strips-height", (n * (strip + gap) - gap + 1 + pad) + "px");
  }
  if (vertical && textBody) {
    setStrips();
    var stripsWidth = window.innerWidth;
    window.addEventListener("resize", function () {
      if (window.innerWidth !== stripsWidth) { stripsWidth = window.innerWidth; setStrips(); }  // not when a phone's bar hides
    });
    if (NARROW && NARROW.addEventListener) NARROW.addEventListener("change", setStrips);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(setStrips);
  }

  // ---------------------------------------------------------------- 直排: the wheel reads on to the left
  if (vertical && textBody) {
    textBody.addEventListener("wheel", function (e) {
      if (e.ctrlKey || e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) return;
      var max = textBody.scrollWidth - textBody.clientWidth;
      if (max <= 0) return;
      var delta = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? textBody.clientWidth : 1);
      var left = textBody.scrollLeft;  // 0 at the right end, down to -max at the left end
      if ((delta > 0 && left <= -max + 1) || (delta < 0 && left >= -1)) return;  // at an end: let the page scroll
      textBody.scrollLeft = left - delta;
      e.preventDefault();
    }, { passive: false });
  }

  // ---------------------------------------------------------------- character lookup
  var popover = null, lookupCache = {}, lastFocus = null;
  var HAN = /[\p{L}\p{N}\p{So}]/u;
  var SKIP = "a, button, label, input, summary, select, textarea, .cite, .cite-box, .section-number, .note-marker, .visually-hidden, .char-popover";

  function hitRange(node, index, length, x, y) {
    var range = document.createRange();
    range.setStart(node, index);
    range.setEnd(node, index + length);
    var rects = range.getClientRects();
    for (var i = 0; i < rects.length; i++) {
      var r = rects[i];
      if (x >= r.left - 1 && x <= r.right + 1 && y >= r.top - 1 && y <= r.bottom + 1) return range;
    }
    return null;
  }

  function charAtPoint(x, y) {
    var node, offset;
    if (document.caretPositionFromPoint) {
      var p = document.caretPositionFromPoint(x, y);
      if (!p) return null;
      node = p.offsetNode; offset = p.offset;
    } else if (document.caretRangeFromPoint) {
      var r = document.caretRangeFromPoint(x, y);
      if (!r) return null;
      node = r.startContainer; offset = r.startOffset;
    }
    if (!node || node.nodeType !== 3) return null;
    var text = node.data;
    var candidates = [offset, offset - 1, offset - 2, offset + 1];
    for (var k = 0; k < candidates.length; k++) {
      var i = candidates[k];
      if (i < 0 || i >= text.length) continue;
      var code = text.charCodeAt(i);
      if (code >= 0xDC00 && code <= 0xDFFF) continue;  // the second half of a surrogate pair
      var len = code >= 0xD800 && code <= 0xDBFF ? 2 : 1;
      var range = hitRange(node, i, len, x, y);
      if (range) return { node: node, index: i, ch: text.substr(i, len), range: range };
    }
    return null;
  }

  function originalChar(hit) {
    // simplified display: the stored character at the same place (conversion keeps lengths)
    var host = hit.node.parentElement && hit.node.parentElement.closest("[data-orig]");
    if (!host) return hit.ch;
    var walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        var el = n.parentElement;
        if (el.closest(".visually-hidden") && host.contains(el.closest(".visually-hidden"))) return NodeFilter.FILTER_REJECT;
        if (el.closest("[data-orig]") !== host) return NodeFilter.FILTER_REJECT;
        if (el.closest(".pb") && host.contains(el.closest(".pb"))) return NodeFilter.FILTER_REJECT;  // page markers are no text
        return NodeFilter.FILTER_ACCEPT;
      }
    });
    // the stored characters, one per displayed character: a gaiji entity (&KR1969;) or U+0001
    // is one (shown as 〓), a code point with its variation selectors is one
    var stored = host.getAttribute("data-orig").match(/&KR\d+;|[\s\S][\u034f\u200c\u200d\ufe00-\ufe0f\u{e0100}-\u{e01ef}]*/gu) || [];
    var shown = function (s) {
      return (s.match(/[\s\S][\u034f\u200c\u200d\ufe00-\ufe0f\u{e0100}-\u{e01ef}]*/gu) || []).length;
    };
    var count = 0, n;
    while ((n = walker.nextNode())) {
      var gaiji = n.parentElement.closest(".gaiji");
      if (n === hit.node) {
        if (!gaiji) count += shown(n.data.slice(0, hit.index));
        var orig = stored[count];
        return orig && !/^&KR/.test(orig) ? orig : hit.ch;
      }
      count += gaiji ? 1 : shown(n.data);
    }
    return hit.ch;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function closePopover(restore) {
    if (!popover || popover.hidden) return;
    popover.hidden = true;
    if (window.CSS && CSS.highlights) CSS.highlights.delete("char-lookup");
    if (restore && lastFocus && lastFocus.focus) lastFocus.focus({ preventScroll: true });
  }

  function place(rect) {
    var margin = 8;
    var width = popover.offsetWidth, height = popover.offsetHeight;
    var vw = document.documentElement.clientWidth, vh = window.innerHeight;
    var left, top;
    if (vertical) {  // beside the column, on its left, or its right
      left = rect.left - width - margin;
      if (left < margin) left = rect.right + margin;
      top = Math.min(Math.max(margin, rect.top - 20), vh - height - margin);
    } else {  // under the line, or over it
      top = rect.bottom + margin;
      if (top + height > vh - margin && rect.top - height - margin > margin) top = rect.top - height - margin;
      left = rect.left - 30;
    }
    left = Math.max(margin, Math.min(left, vw - width - margin));
    popover.style.left = (left + window.scrollX) + "px";  // CSSOM, allowed under CSP
    popover.style.top = (Math.max(margin, top) + window.scrollY) + "px";
  }

  function charButtons(chars) {
    var dd = el("dd", "chars");
    chars.forEach(function (c) {
      var b = el("button", null, c);
      b.type = "button";
      b.title = "查「" + c + "」";
      b.addEventListener("click", function (e) { e.stopPropagation(); lookup(c, null, null); });
      dd.appendChild(b);
    });
    return dd;
  }

  function render(data, shown) {
    popover.textContent = "";
    popover.setAttribute("aria-label", "查字：" + data.char);
    var head = el("div", "head");
    head.appendChild(el("span", "glyph", data.char)).setAttribute("lang", "zh-Hant");
    var readings = (data.mandarin || []).join(" ") || (data.other_readings || []).join(" ");
    if (readings) head.appendChild(el("span", "pinyin", readings));
    head.appendChild(el("span", "codepoint", data.codepoint));
    var close = el("button", "close", "×");
    close.type = "button";
    close.setAttribute("aria-label", w("關閉"));
    close.addEventListener("click", function () { closePopover(true); });
    head.appendChild(close);
    popover.appendChild(head);
    var dl = el("dl");
    function row(term, dd) { dl.appendChild(el("dt", null, term)); dl.appendChild(dd); }
    if (!data.found) row("字表", el("dd", null, "未收此字" + (data.name ? "（" + data.name + "）" : "")));
    if (data.mandarin && data.mandarin.length && data.other_readings && data.other_readings.length) {
      row(w("又讀"), el("dd", "pinyin", data.other_readings.join(" ")));
    }
    if (data.definition) { var d = el("dd", "definition", data.definition); d.lang = "en"; row(w("釋義"), d); }
    if (data.see) {  // no reading of its own: its standard form's (𤣥 → 玄 xuán)
      var see = charButtons([data.see.char]);
      see.appendChild(el("span", "pinyin", " " + (data.see.mandarin || []).join(" ") + " "));
      var seeDef = el("span", null, data.see.definition || "");
      seeDef.lang = "en";
      see.appendChild(seeDef);
      row("正字", see);
    } else if (data.standard && data.standard.length) row("正字", charButtons(data.standard));
    if (data.see && data.standard && data.standard.length > 1) row(w("又見"), charButtons(data.standard.slice(1)));
    if (data.traditional && data.traditional.length) row(w("繁體"), charButtons(data.traditional));
    if (data.simplified && data.simplified.length) row(w("簡體"), charButtons(data.simplified));
    // 異體: the forms search treats as this character; 相關字: forms the variant tables relate
    // to it that search keeps apart (太 beside 大); neither repeats a 繁體 or 簡體 (the page's
    // lists, characters.dictionary.CharEntry: 个's 箇 is 繁體 only).
    var same = data.variants_searched_together || [];
    var related = data.related || [];
    if (same.length) row(w("異體"), charButtons(same));
    if (related.length) row(w("相關字"), charButtons(related));
    if (shown && shown !== data.char) row(w("顯示"), el("dd", null, w("簡體作「") + shown + "」"));
    popover.appendChild(dl);
    var links = el("p", "links");
    var more = el("a", null, w("詳細"));
    more.href = data.url + "?format=html";
    var find = el("a", null, w("檢索「") + data.char + "」");
    find.href = data.search_url;
    links.appendChild(more);
    links.appendChild(find);
    popover.appendChild(links);
  }

  function lookup(ch, rect, shown) {
    if (!popover) {
      popover = el("div", "char-popover");
      popover.setAttribute("role", "dialog");
      popover.tabIndex = -1;
      popover.hidden = true;
      document.body.appendChild(popover);
    }
    var show = function (data) {
      render(data, shown);
      var wasHidden = popover.hidden;
      popover.hidden = false;
      if (rect) place(rect);
      if (wasHidden || rect) popover.focus({ preventScroll: true });
    };
    if (lookupCache[ch]) { show(lookupCache[ch]); return; }
    fetch("/chars/" + encodeURIComponent(ch) + "/", { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (data) { lookupCache[ch] = data; show(data); })
      .catch(function () { show({ char: ch, codepoint: "", found: false, url: "/chars/" + encodeURIComponent(ch) + "/", search_url: "/search/?q=" + encodeURIComponent(ch) }); });
  }

  if (textBody) {
    textBody.addEventListener("click", function (e) {
      if (e.button !== 0 || e.target.closest(SKIP)) return;
      var sel = window.getSelection();
      if (sel && !sel.isCollapsed && String(sel).trim()) return;  // selecting text to copy, not looking up
      var hit = charAtPoint(e.clientX, e.clientY);
      if (!hit || !HAN.test(hit.ch)) return;
      if (hit.node.parentElement.closest(SKIP)) return;
      lastFocus = document.activeElement;
      if (window.CSS && CSS.highlights && window.Highlight) CSS.highlights.set("char-lookup", new Highlight(hit.range));
      var orig = originalChar(hit);
      lookup(orig, hit.range.getBoundingClientRect(), hit.ch);
    });
  }
  document.addEventListener("click", function (e) {
    if (popover && !popover.hidden && !popover.contains(e.target) && !(textBody && textBody.contains(e.target))) closePopover(false);
  });
  window.addEventListener("resize", function () { closePopover(false); });

  // ---------------------------------------------------------------- a selected span: its parallel passages
  // Selecting 8 characters or more of the text shows a link to /parallels/?text=… beside the end
  // of the selection (p follows it), with the section it starts in (from=edition/juan/section,
  // which the list leaves out). The text sent is the stored text as far as the page shows
  // it: page markers, note markers and hidden labels are left out, a gaiji (〓) is its code.
  var SPAN_MIN = 8, SPAN_MAX = 2000;
  var NOT_TEXT = ".pb, .visually-hidden, .note-marker, .section-number, button, label, summary, .cite, .cite-box, .char-popover";
  var spanLink = null, spanText = "";

  function rangeText(range) {
    var root = range.commonAncestorContainer;
    if (root.nodeType !== 1) root = root.parentNode;
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        if (!range.intersectsNode(n)) return NodeFilter.FILTER_REJECT;
        return n.parentElement.closest(NOT_TEXT) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    var out = "", lastGaiji = null, n;
    while ((n = walker.nextNode())) {
      var gaiji = n.parentElement.closest(".gaiji");
      if (gaiji) {
        if (gaiji !== lastGaiji) out += gaiji.getAttribute("data-code") || "〓";
        lastGaiji = gaiji;
        continue;
      }
      var a = n === range.startContainer ? range.startOffset : 0;
      var b = n === range.endContainer ? range.endOffset : n.data.length;
      out += n.data.slice(a, b);
    }
    return out;
  }

  function spanLength(text) {  // characters of text, a gaiji as one (no punctuation or spacing)
    return (text.replace(/&KR\d+;/g, "〓").match(/[\p{L}\p{N}\p{So}]/gu) || []).length;
  }

  function hideSpanLink() {
    if (spanLink) spanLink.hidden = true;
    spanText = "";
  }

  function showSpanLink() {
    var sel = window.getSelection();
    if (!textBody || !sel || sel.isCollapsed || !sel.rangeCount) { hideSpanLink(); return; }
    var range = sel.getRangeAt(0);
    if (!textBody.contains(range.commonAncestorContainer)) { hideSpanLink(); return; }
    var text = rangeText(range).replace(/\s+/g, "").slice(0, SPAN_MAX);
    var count = spanLength(text);
    if (count < SPAN_MIN) { hideSpanLink(); return; }
    if (!spanLink) {
      spanLink = el("a", "span-parallels");
      spanLink.setAttribute("aria-keyshortcuts", "p");
      spanLink.addEventListener("mousedown", function (e) { e.preventDefault(); });  // keep the selection
      (main || document.body).appendChild(spanLink);  // inside the main landmark, where its text is
    }
    var fresh = text !== spanText || spanLink.hidden;
    spanText = text;
    var from = "", where = range.startContainer.parentElement.closest("section.section");
    if (where && textBody.dataset.edition && /^s\d+$/.test(where.id)) {
      from = "&from=" + textBody.dataset.edition + "/" + textBody.dataset.juan + "/" + where.id.slice(1);
    }
    spanLink.href = "/parallels/?text=" + encodeURIComponent(text) + from;
    spanLink.textContent = w("相關段落");
    spanLink.appendChild(el("small", null, w("（所選 ") + count + " 字）"));
    spanLink.title = w("查找所選文字在他書中之相關段落 (p)");
    spanLink.hidden = false;
    var rects = range.getClientRects();
    var rect = rects.length ? rects[rects.length - 1] : range.getBoundingClientRect();
    var margin = 6, width = spanLink.offsetWidth, height = spanLink.offsetHeight;
    var vw = document.documentElement.clientWidth, vh = window.innerHeight, left, top;
    if (vertical) {  // beside the last column of the selection, on its left
      left = rect.left - width - margin;
      if (left < margin) left = rect.right + margin;
      top = rect.bottom - height;
    } else {  // under the end of the selection
      left = rect.right - width;
      top = rect.bottom + margin;
      if (top + height > vh - margin) top = rect.top - height - margin;
    }
    left = Math.max(margin, Math.min(left, vw - width - margin));
    top = Math.max(margin, Math.min(top, vh - height - margin));
    spanLink.style.left = (left + window.scrollX) + "px";
    spanLink.style.top = (top + window.scrollY) + "px";
    if (fresh) say(w("已選 ") + count + w(" 字，按 p 查相關段落"));
  }

  var spanTimer = null;
  if (textBody) {
    document.addEventListener("selectionchange", function () {
      window.clearTimeout(spanTimer);
      spanTimer = window.setTimeout(showSpanLink, 150);
    });
    window.addEventListener("resize", function () { if (spanLink && !spanLink.hidden) showSpanLink(); });
    if (vertical) textBody.addEventListener("scroll", function () { if (spanLink && !spanLink.hidden) showSpanLink(); }, { passive: true });
  }

  // ---------------------------------------------------------------- page markers in the margin
  // On a wide horizontal page each page break (.pb) stands in the left margin beside the line it
  // falls in (site.css): two breaks in one line (葉 1-28b, 葉 1-29a, a short page between them)
  // were drawn on top of each other. Each marker that would meet the one above it is moved
  // down below it, in text order; again when the lines move (resize, fonts, a note opened).
  var markers = Array.prototype.slice.call(document.querySelectorAll(".section .pb"));
  function spreadMarkers() {
    markers.forEach(function (pb) { pb.style.transform = ""; });
    if (!markers.length || getComputedStyle(markers[0]).position !== "absolute") return;
    var boxes = markers.map(function (pb) { return pb.getBoundingClientRect(); });
    var bottoms = {};  // per column of markers (the margin; a note's own box holds others)
    boxes.forEach(function (box, i) {
      if (!box.height) return;  // a marker not shown (a closed note's)
      var column = Math.round(box.left), bottom = column in bottoms ? bottoms[column] : -Infinity;
      var top = Math.max(box.top, bottom + 2);
      if (top > box.top) markers[i].style.transform = "translateY(" + (top - box.top) + "px)";
      bottoms[column] = top + box.height;
    });
  }
  if (markers.length) {
    spreadMarkers();
    var spreadLater = null;
    var respread = function () { window.clearTimeout(spreadLater); spreadLater = window.setTimeout(spreadMarkers, 50); };
    window.addEventListener("resize", respread);
    document.addEventListener("change", respread);  // a note opened beside the text moves the lines
    document.addEventListener("toggle", respread, true);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(spreadMarkers);
  }

  // ---------------------------------------------------------------- keyboard shortcuts (listed on the page)
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { closePopover(true); hideSpanLink(); return; }
    var t = e.target;
    if (t.closest && t.closest("input, textarea, select, [contenteditable]")) return;
    var handled = true;
    switch (e.key) {
      case "j": goSection(1); break;
      case "k": goSection(-1); break;
      case "]": handled = follow(".juan-pager a[rel=next]"); break;
      case "[": handled = follow(".juan-pager a[rel=prev]"); break;
      case "n": showMark(currentMark + 1); break;
      case "p": if (spanLink && !spanLink.hidden) spanLink.click(); else handled = false; break;
      case "N": showMark(currentMark - 1); break;
      case "1": case "2": case "3": case "4":
        handled = follow('.display-controls a[data-setting="notes"][data-value="' + ["inline", "hidden", "only", "beside"][+e.key - 1] + '"]');
        break;
      case "v": cycleSetting("layout", 1); break;
      case "s": cycleSetting("script", 1); break;
      case "+": case "=": cycleSetting("size", 1); break;
      case "-": cycleSetting("size", -1); break;
      case "c": {
        var button = document.querySelector(".cite-main .copy");
        if (!button && sections.length) button = sections[currentIndex()].querySelector(".copy");
        if (button) copyCitation(button); else handled = false;
        break;
      }
      case "t": {
        var toc = document.querySelector(".toc");
        if (toc) {
          toc.open = true;
          var link = toc.querySelector("a[aria-current]") || toc.querySelector("a");
          if (link) { link.scrollIntoView({ block: "center" }); link.focus({ preventScroll: true }); }
        }
        break;
      }
      case "/": {
        var q = document.getElementById("quick-q");
        if (q) { q.focus(); q.select(); }
        break;
      }
      case "?": {
        var help = document.getElementById("shortcuts");
        if (help) {
          help.open = !help.open;
          if (help.open && settings) settings.open = true;  // folded with the settings on a narrow window
          help.scrollIntoView({ block: "nearest" });
        }
        break;
      }
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });
})();
