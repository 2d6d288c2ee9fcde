// "Which row?": counts the tapped cards (the form works without it; the server checks the hand).
(function () {
  "use strict";
  function setup(form) {
    var out = form.querySelector("[data-count]");
    var text = form.getAttribute("data-count-text") || "{n}";
    function count() {
      var n = form.querySelectorAll("input[name=card]:checked").length;
      if (out) out.textContent = text.replace("{n}", String(n));
    }
    form.addEventListener("change", count);
    form.addEventListener("reset", function () { window.setTimeout(count, 0); });
    count();
  }
  document.addEventListener("DOMContentLoaded", function () {
    var forms = document.querySelectorAll("form[data-adviser]");
    for (var i = 0; i < forms.length; i++) setup(forms[i]);
  });
})();
