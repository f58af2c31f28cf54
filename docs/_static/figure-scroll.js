/* Figure boxes that scroll sideways (bmc.css: on a phone a figure keeps a legible width and
 * its output box scrolls). Such a box is made a keyboard stop with a name, so that it can be
 * scrolled with the arrow keys and a screen reader says what it is; a box that fits loses
 * both again (checked on load and on every resize).
 */
(function () {
  "use strict";
  var BOXES = "div.cell_output, figure.bmc-figure";
  var NAME = "Figure wider than the screen: scroll sideways with the arrow keys";

  function scrolls(box) {
    var overflow = getComputedStyle(box).overflowX;
    return (overflow === "auto" || overflow === "scroll") && box.scrollWidth > box.clientWidth + 1;
  }

  function mark() {
    document.querySelectorAll(BOXES).forEach(function (box) {
      if (box.querySelector("img") && scrolls(box)) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", NAME);
        box.dataset.bmcScroll = "1";
      } else if (box.dataset.bmcScroll) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
        delete box.dataset.bmcScroll;
      }
    });
  }

  var pending = null;
  function later() {
    if (pending === null) {
      pending = requestAnimationFrame(function () { pending = null; mark(); });
    }
  }
  window.addEventListener("load", mark);
  window.addEventListener("resize", later);
  document.addEventListener("DOMContentLoaded", function () {
    mark();
    document.querySelectorAll(BOXES + " img").forEach(function (img) {
      if (!img.complete) img.addEventListener("load", later);
    });
  });
})();
