/* The digital table: show the server's answer to a refused card or a stale tap
   (409/422 carry the fresh seat view and the reason), instead of dropping it. */
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    if ((status === 409 || status === 422) && evt.detail.target && evt.detail.target.id === "seat-live") {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });
})();
