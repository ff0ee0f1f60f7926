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
})();
