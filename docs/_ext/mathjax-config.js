/* MathJax 3 settings of the course site (docs/conf.py: mathjax_config_path; Sphinx inlines
 * this file after myst's window.MathJax, on pages with formulas).
 *
 * - Formulas are not tab stops (MathJax puts every formula in the tab order by default: 271
 *   stops on notebook 2's page). A formula that scrolls because it is wider than its box is
 *   made focusable, so that a keyboard user can scroll it; checked again on resize.
 * - Assistive MathML (MathJax's default) stays: screen readers that read MathML get it.
 * - Over HTTP(S) the speech component (Speech Rule Engine, ClearSpeak rules, the files under
 *   _static/mathjax/sre/) gives each formula its spoken form as aria-label. A page opened from
 *   disk (file://) cannot load those files (the browser blocks the requests), so there the
 *   speech component is not loaded at all and formulas keep their assistive MathML only.
 */
(function () {
  "use strict";
  var speech = location.protocol === "http:" || location.protocol === "https:";
  var mj = (window.MathJax = window.MathJax || {});
  var options = (mj.options = mj.options || {});
  options.menuOptions = { settings: { inTabOrder: false } };
  if (speech) {
    mj.loader = { load: ["a11y/semantic-enrich"] };
    options.enableEnrichment = true;
    options.sre = { speech: "shallow", domain: "clearspeak" };
  }

  function scrolls(box) {
    var overflow = getComputedStyle(box).overflowX;
    return (overflow === "auto" || overflow === "scroll") && box.scrollWidth > box.clientWidth;
  }

  function markScrollable() {
    document.querySelectorAll("mjx-container").forEach(function (box) {
      if (speech && box.hasAttribute("aria-label")) {
        box.setAttribute("role", "math"); // a name is allowed on math, not on a bare element
      }
      if (scrolls(box)) {
        box.setAttribute("tabindex", "0");
      } else {
        box.removeAttribute("tabindex");
      }
    });
  }

  var pending = null;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(markScrollable, 200);
  });
  mj.startup = {
    pageReady: function () {
      return MathJax.startup.defaultPageReady().then(markScrollable);
    },
  };
})();
