/* A 503 with Retry-After (templates/503.html: a quotation map being made, a server whose
   workers stayed busy): the page counts the wait down and asks for the same address again when
   it is over; 停止自動重試 stops it, and 立即重試 asks at once. Without JavaScript the page says
   when to try again and links to it. The count is not a live region: a screen reader hears the
   wait once, in the heading and the paragraph, not every second. */
(function () {
  "use strict";
  var box = document.querySelector(".retry[data-retry-after]");
  if (!box) return;
  var left = Math.max(1, parseInt(box.getAttribute("data-retry-after"), 10) || 1);
  var auto = box.querySelector(".retry-auto"), shown = box.querySelector(".retry-seconds");
  var again = box.querySelector("a");
  auto.hidden = false;
  var timer = window.setInterval(function () {
    left -= 1;
    shown.textContent = String(Math.max(left, 0));
    if (left <= 0) {
      window.clearInterval(timer);
      window.location.replace(again.href);
    }
  }, 1000);
  box.querySelector(".retry-stop").addEventListener("click", function () {
    window.clearInterval(timer);
    auto.textContent = "：已停止自動重試 (stopped)";
    again.focus();
  });
})();
