/* The search form (templates/search/search.html) sends only what says something: a field left
   empty (書, 卷, 注者 …) or at its default (data-default: 上下文字數 15, 排序 文序) is left out of
   the URL, as the server reads it absent anyway (search.views.non_default, which redirects a
   URL holding one to the page without it: this spares that round trip). Without JavaScript
   the browser sends every field and the server's redirect tidies the URL. */
(function () {
  "use strict";
  var form = document.querySelector("form.search-form");
  if (!form) return;
  function isDefault(name, value) {
    var text = String(value).trim();
    if (!text) return true;
    var control = form.querySelector("[name='" + name + "'][data-default]");
    return Boolean(control) && text === control.getAttribute("data-default");
  }
  form.addEventListener("formdata", function (event) {
    var data = event.formData, kept = [], names = [];
    data.forEach(function (value, name) {
      if (names.indexOf(name) < 0) names.push(name);
      if (!isDefault(name, value)) kept.push([name, value]);
    });
    names.forEach(function (name) { data.delete(name); });
    kept.forEach(function (pair) { data.append(pair[0], pair[1]); });
  });

  /* The 版本 select offers the chosen work's editions only (each option names its work,
     data-work: search.views.edition_choices), all of them when no work is chosen; an edition of
     another work chosen before is let go (全部), so the two filters never name two books. This
     runs before the 卷 list below asks for the juans of the work and edition chosen. */
  var work = form.querySelector("select[name='work']"), edition = form.querySelector("select[name='edition']");
  function followWork(letGo) {
    Array.prototype.forEach.call(edition.options, function (option) {
      var other = Boolean(work.value) && option.hasAttribute("data-work") && option.getAttribute("data-work") !== work.value;
      if (other && option.selected) {
        if (!letGo) return;  // the page's own search named it: shown as it was searched
        edition.value = "";
      }
      option.hidden = other;
      option.disabled = other;
    });
  }
  if (work && edition) {
    followWork(false);
    work.addEventListener("change", function () { followWork(true); });
  }

  /* The 卷 field's list is the chosen work's (or edition's) juans (search.views.juan_labels).
     The server sends it with the page of a search for a work; when the reader chooses another
     work or edition, it is asked for at once (search.views.juan_labels_page), so the list is the
     book's before the search is sent, and the field's hint (aria-describedby) says so. */
  var juan = form.querySelector("#id_juan"), hint = document.getElementById("juan-hint");
  var url = form.getAttribute("data-juan-labels");
  if (!juan || !hint || !url) return;
  if (hint.hasAttribute("data-script-hint")) hint.textContent = hint.getAttribute("data-script-hint");
  var asked = null;
  function show(data) {
    var list = document.getElementById("juan-labels");
    if (data.labels.length) {
      if (!list) {
        list = document.createElement("datalist");
        list.id = "juan-labels";
        juan.closest(".field").after(list);
      }
      list.replaceChildren.apply(list, data.labels.map(function (label) {
        var option = document.createElement("option");
        option.value = label;
        return option;
      }));
      juan.setAttribute("list", "juan-labels");
    } else {
      juan.removeAttribute("list");
      if (list) list.remove();
    }
    hint.textContent = data.hint;
  }
  function refresh() {
    var params = new URLSearchParams();
    ["work", "edition"].forEach(function (name) {
      var control = form.querySelector("select[name='" + name + "']");
      if (control && control.value) params.set(name, control.value);
    });
    var query = params.toString();
    asked = query;
    fetch(url + (query ? "?" + query : ""), {headers: {Accept: "application/json"}, credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data && asked === query) show(data); })
      .catch(function () { /* the list stays as it was; the search still filters by the label typed */ });
  }
  ["work", "edition"].forEach(function (name) {
    var control = form.querySelector("select[name='" + name + "']");
    if (control) control.addEventListener("change", refresh);
  });
})();
