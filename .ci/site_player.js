// The static site's steppers: step through frames recorded when the site was built (widgets/_record.py).
// No kernel and no network: each `.mg-player` holds its frames as JSON; the buttons show them, as the
// widget's own buttons do in a live notebook (Step, Back, Play, Run to end, Reset, the slider, zoom).
// The texts this script writes come with the page, in its language: data-play, data-pause, data-position.
(function () {
  "use strict";

  function setUp(player) {
    var frames = JSON.parse(player.querySelector("script.mg-frames").textContent);
    var end = frames.length - 1;
    var position = Math.min(Number(player.dataset.start) || 0, end);
    var zoom = "fit";
    var timer = null;
    var el = function (selector) { return player.querySelector(selector); };
    var buttons = {};
    player.querySelectorAll("[data-act]").forEach(function (b) { buttons[b.dataset.act] = b; });
    var slider = el("input.mg-slider");
    slider.max = String(end);

    function show(n) {
      position = Math.max(0, Math.min(n, end));
      var frame = frames[position];
      var graph = el(".mg-graph");
      graph.innerHTML = frame.svg;
      el(".mg-panel").innerHTML = frame.panel;
      slider.value = String(position);
      el(".mg-position").textContent = player.dataset.position.replace("{n}", position).replace("{total}", end);
      buttons.step.disabled = buttons.run.disabled = buttons.play.disabled = position === end;
      buttons.back.disabled = position === 0;
      if (position === end) { pause(); }
      var svg = graph.querySelector("svg");
      if (svg && zoom !== "fit") {          // actual size, and the current node scrolled into view
        svg.style.maxWidth = "none";
        svg.setAttribute("width", svg.viewBox.baseVal.width * 4 / 3 + "px");
        svg.setAttribute("height", svg.viewBox.baseVal.height * 4 / 3 + "px");
        var titles = svg.querySelectorAll("g.node > title");
        for (var i = 0; i < titles.length; i++) {
          if (titles[i].textContent === frame.focus) {
            var box = titles[i].parentNode.getBoundingClientRect(), area = graph.getBoundingClientRect();
            graph.scrollLeft += box.left + box.width / 2 - area.left - area.width / 2;
            graph.scrollTop += box.top + box.height / 2 - area.top - area.height / 2;
          }
        }
      }
    }
    function pause() {
      if (timer !== null) { clearInterval(timer); timer = null; }
      buttons.play.textContent = player.dataset.play;
    }
    function play() {
      if (timer !== null) { pause(); return; }
      buttons.play.textContent = player.dataset.pause;
      timer = setInterval(function () { show(position + 1); }, 800);
    }
    buttons.step.addEventListener("click", function () { show(position + 1); });
    buttons.back.addEventListener("click", function () { show(position - 1); });
    buttons.run.addEventListener("click", function () { show(end); });
    buttons.reset.addEventListener("click", function () { pause(); show(0); });
    buttons.play.addEventListener("click", play);
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    player.querySelectorAll("[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () { zoom = b.dataset.zoom; show(position); });
    });
    show(position);
  }

  function start() { document.querySelectorAll(".mg-player").forEach(setUp); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
