// The divisor explorer drawn in the browser: the view of attention_lesson.explorer.widget.DivisorExplorer (an
// anywidget) and of the self-contained page and stand-in that attention_lesson.explorer.view writes.
//
// It is given the row's unit-scale scores z for every T (by the kernel for one seed, or embedded in a page for a set
// of seeds) and computes the rest itself, in the order attention_lesson/explorer/model.py does: the scores
// sqrt(d_k)·z, the divisor d_k**p, the softmax of scores / divisor, the three readouts and the top weight at every
// width. So a key press redraws without the kernel; only a new seed asks it for a row. The Python model stays the
// reference: tests/explorer/test_browser_explorer.py compares every number drawn here with it.
//
// Every word, colour and scale comes from Python in `look` (attention_lesson.explorer.view.view_look), so each is
// spelled once. The controls are native inputs and buttons (keyboard-operable, labelled); the readouts sit in a
// polite live region; the numbers behind the bars are also a text table.

const SVG_NS = "http://www.w3.org/2000/svg";
let instances = 0; // gives each view on a page its own element ids
const ASK_FIRST_MS = 2000; // waiting for a new seed's rows: ask the kernel again after this long, then twice as long...
const ASK_MOST_MS = 30000; // ... but never waiting longer than this between two asks

// ---- the numbers: the same steps as attention_lesson/explorer/model.py ---------------------------------------

/** The scores sqrt(d_k)·z, the divisor d_k**p, the divided scores and their softmax, the attention weights. */
export function attention(z, dK, p) {
  const root = Math.sqrt(dK);
  const divisor = Math.pow(dK, p);
  const scores = z.map((v) => root * v);
  const divided = scores.map((v) => v / divisor);
  const top = Math.max(...divided);
  const shifted = divided.map((v) => Math.exp(v - top));
  const total = shifted.reduce((sum, v) => sum + v, 0);
  return { divisor, scores, divided, weights: shifted.map((v) => v / total) };
}

/** The readouts of a row of weights α in the order of model.READOUTS: max α, 1 − Σα², max α(1−α). */
export function measures(weights) {
  return [
    Math.max(...weights),
    1 - weights.reduce((sum, a) => sum + a * a, 0),
    Math.max(...weights.map((a) => a * (1 - a))),
  ];
}

/** Everything the view shows for settings {d_k, p, T, seed} and that row's unit-scale scores z. */
export function stateOf(settings, z, look) {
  const row = attention(z, settings.d_k, settings.p);
  const readouts = measures(row.weights);
  const curve = look.widths.map((width) => Math.max(...attention(z, width, settings.p).weights));
  return { ...settings, ...row, z, readouts, curve, winner: row.weights.indexOf(readouts[0]) };
}

// ---- the words: the same formats as attention_lesson/explorer/captions.py -----------------------------------

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => String(values[key]));
}

/** Python's format(x, ".{digits}f"). JavaScript's toFixed rounds a tie (a double exactly halfway between two
 * results, such as 0.0625 to 3 places) away from zero, Python to the even last digit: ties are found in the double's
 * exact decimal value (a tie's ends within digits + 1 places; 100 places show any other value differs from it). */
export function fixed(x, digits) {
  if (Object.is(x, -0)) return `-${(0).toFixed(digits)}`;
  const exact = Math.abs(x).toFixed(100);
  const cut = exact.indexOf(".") + 1 + digits;
  const tie = exact[cut] === "5" && /^0*$/.test(exact.slice(cut + 1));
  const down = exact.slice(0, cut);
  if (!tie || Number(down[down.length - 1]) % 2 === 1) return x.toFixed(digits);
  return (x < 0 ? "-" : "") + down;
}

/** Python's format(x, ".4g") for 1e-4 <= x < 1e4 (every divisor d_k**p lies between 1 and 1024). */
function general4(x) {
  return String(Number(x.toPrecision(4)));
}

/** The divisor's name: "1", "√d_k" or "d_k" for the named exponents, else the template with p to two decimals. */
export function divisorLabel(p, look) {
  const named = look.divisors.find(([, exponent]) => Math.abs(p - exponent) <= 1e-9);
  return named ? named[0] : fill(look.words.other_divisor, { p: fixed(p, 2) });
}

/** The text of each readout, keyed as the table's data-readout attributes. */
export function readoutTexts(state, look) {
  const label = divisorLabel(state.p, look), value = general4(state.divisor);
  // a divisor whose name is its value (1) is said once: "1", not "1 = 1"
  const texts = { divisor: label === value ? label : fill(look.words.divisor, { label, value }) };
  look.measures.forEach(([key], i) => { texts[key] = fixed(state.readouts[i], 4); });
  texts.winner = fill(look.words.winner, { position: state.winner + 1, T: state.T });
  texts.seed = String(state.seed);
  return texts;
}

// ---- small DOM helpers ---------------------------------------------------------------------------------------

function make(tag, attributes = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

function svg(tag, attributes = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

function place(node, attributes) {
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
}

// ---- one panel of the picture: its box, its scales, its fixed parts ------------------------------------------

class Panel {
  constructor(parent, spec, look) {
    this.spec = spec;
    this.look = look;
    [this.x0, this.y0, this.x1, this.y1] = spec.box;
    this.g = svg("g", { class: `explorer-panel explorer-panel-${spec.name}` }, parent);
    this.grid = svg("g", { class: "explorer-grid" }, this.g);
    this.ticks = svg("g", { class: "explorer-ticks" }, this.g);
    this.marks = svg("g", {}, this.g); // bars, lines and texts drawn on top of the grid
    const font = look.font_px;
    svg("text", { x: (this.x0 + this.x1) / 2, y: this.y0 - 0.6 * font, "text-anchor": "middle",
                  class: "explorer-title" }, this.g, spec.title);
    svg("text", { x: (this.x0 + this.x1) / 2, y: this.y1 + 3.2 * font, "text-anchor": "middle" }, this.g, spec.xlabel);
    const labelX = this.x0 - spec.ylabel_offset * font;
    svg("text", { x: labelX, y: (this.y0 + this.y1) / 2, "text-anchor": "middle",
                  transform: `rotate(-90 ${labelX} ${(this.y0 + this.y1) / 2})` }, this.g, spec.ylabel);
    svg("line", { x1: this.x0, y1: this.y0, x2: this.x0, y2: this.y1, class: "explorer-spine" }, this.g);
    svg("line", { x1: this.x0, y1: this.y1, x2: this.x1, y2: this.y1, class: "explorer-spine" }, this.g);
    this.xlim = spec.xlim;
    this.drawYTicks();
    if (spec.xticks) this.drawXTicks(spec.xticks);
  }

  fy(v) {
    const s = this.spec.yscale;
    if (s.kind !== "symlog") return v;
    const adjusted = s.linscale / (1 - 1 / s.base);
    const size = Math.abs(v);
    if (size <= s.linthresh) return v * adjusted;
    return Math.sign(v) * s.linthresh * (adjusted + Math.log(size / s.linthresh) / Math.log(s.base));
  }

  fx(v) {
    return this.spec.xscale === "log2" ? Math.log2(v) : v;
  }

  x(v) {
    const [lo, hi] = this.xlim.map((u) => this.fx(u));
    return this.x0 + ((this.fx(v) - lo) / (hi - lo)) * (this.x1 - this.x0);
  }

  y(v) {
    const [lo, hi] = this.spec.ylim.map((u) => this.fy(u));
    return this.y1 - ((this.fy(v) - lo) / (hi - lo)) * (this.y1 - this.y0);
  }

  drawYTicks() {
    const font = this.look.font_px;
    for (const [value, label] of this.spec.yticks) {
      const y = this.y(value);
      svg("line", { x1: this.x0, y1: y, x2: this.x1, y2: y }, this.grid);
      svg("line", { x1: this.x0 - 0.35 * font, y1: y, x2: this.x0, y2: y }, this.ticks);
      svg("text", { x: this.x0 - 0.7 * font, y, "text-anchor": "end", "dominant-baseline": "central" },
          this.ticks, label);
    }
  }

  /** Vertical grid lines, tick marks and labels at [[value, label], ...]; replaces the previous ones. */
  drawXTicks(ticks) {
    const font = this.look.font_px;
    for (const group of [this.grid, this.ticks]) {
      for (const node of group.querySelectorAll(".explorer-xtick")) node.remove();
    }
    for (const [value, label] of ticks) {
      const x = this.x(value);
      svg("line", { x1: x, y1: this.y0, x2: x, y2: this.y1, class: "explorer-xtick" }, this.grid);
      const tick = svg("g", { class: "explorer-xtick" }, this.ticks);
      svg("line", { x1: x, y1: this.y1, x2: x, y2: this.y1 + 0.35 * font }, tick);
      if (label) svg("text", { x, y: this.y1 + 0.7 * font, "text-anchor": "middle", "dominant-baseline": "hanging" },
                     tick, label);
    }
  }

  /** A set of `count` bars of one class, hidden until drawn. */
  bars(count, className) {
    return Array.from({ length: count }, () => svg("rect", { class: className, visibility: "hidden" }, this.marks));
  }

  /** Bars of the given heights centred on positions 1, 2, ..., each `width` wide (in positions), from 0. */
  drawBars(rects, heights, width, colour) {
    const zero = this.y(0);
    rects.forEach((rect, j) => {
      if (j >= heights.length) {
        rect.setAttribute("visibility", "hidden");
        return;
      }
      const left = this.x(j + 1 - width / 2);
      const top = this.y(heights[j]);
      place(rect, { x: left, width: this.x(j + 1 + width / 2) - left, y: Math.min(top, zero),
                    height: Math.abs(top - zero), fill: colour, visibility: "visible" });
    });
  }

  horizontal(line, value) {
    const y = this.y(value);
    place(line, { x1: this.x0, x2: this.x1, y1: y, y2: y });
  }
}

// ---- the view ------------------------------------------------------------------------------------------------

class ExplorerView {
  constructor(model) {
    this.model = model;
    this.look = model.get("look");
    this.id = `divisor-explorer-${++instances}`;
    this.shownSeed = null;
    this.listeners = [];
    this.askAgain = null;
    this.askDelay = ASK_FIRST_MS;
    this.root = make("div", { class: "divisor-explorer", "data-lm-suppress-shortcuts": "true" });
    // A notebook page takes arrow keys and the like for itself (JupyterLab moves between cells with them): keys
    // pressed on a control stay with the control, as ipywidgets' own inputs keep them; Tab and Escape go on.
    this.root.addEventListener("keydown", (event) => {
      if (event.key !== "Tab" && event.key !== "Escape") event.stopPropagation();
    });
    this.buildControls();
    this.buildPicture();
    this.buildNumbers();
    for (const name of ["d_k", "p", "T", "seed", "rows"]) this.listen(`change:${name}`, () => this.update());
    this.update();
  }

  listen(event, callback) {
    this.model.on(event, callback);
    this.listeners.push([event, callback]);
  }

  dispose() {
    for (const [event, callback] of this.listeners) this.model.off(event, callback);
    clearTimeout(this.askAgain);
  }

  /** While a new seed's rows have not come, ask the kernel again, after 2, 4, 8... (at most 30) seconds: a widget
   *  change sent to a busy kernel was seen never to be answered, and the kernel answers an ask with the rows it
   *  holds (DivisorExplorer._asked). An answer, or a page without a kernel, ends the asking. */
  keepAsking(pending) {
    if (!pending || this.embedded) {
      clearTimeout(this.askAgain);
      this.askAgain = null;
      this.askDelay = ASK_FIRST_MS;
      return;
    }
    if (this.askAgain) return;
    this.askAgain = setTimeout(() => {
      this.askAgain = null;
      this.askDelay = Math.min(2 * this.askDelay, ASK_MOST_MS);
      this.model.send({ seed: this.model.get("seed") });
      this.keepAsking(this.model.get("seed") !== this.shownSeed);
    }, this.askDelay);
  }

  /** Set model values from a control and send them to the kernel, if there is one; the model's events redraw. */
  change(values) {
    for (const [name, value] of Object.entries(values)) this.model.set(name, value);
    this.model.save_changes();
  }

  get embedded() {
    return this.model.get("reseed") === "embedded";
  }

  seeds() {
    return Object.keys(this.model.get("rows")).map(Number).sort((a, b) => a - b);
  }

  // -- controls --
  slider(parent, key, label, { min, max, value, text }) {
    const box = make("div", { class: `explorer-control explorer-${key}` }, parent);
    make("label", { for: `${this.id}-${key}` }, box, label);
    const input = make("input", { id: `${this.id}-${key}`, type: "range", min, max, step: 1 }, box);
    input.value = value;
    const shown = make("span", { class: "explorer-value", "aria-hidden": "true" }, box, text);
    return { input, shown };
  }

  buildControls() {
    const { look } = this;
    const words = look.controls;
    const controls = make("div", { class: "explorer-controls" }, this.root);
    const left = make("div", { class: "explorer-column" }, controls);
    const right = make("div", { class: "explorer-column" }, controls);

    this.dK = this.slider(left, "d-k", words.d_k, { min: 0, max: look.widths.length - 1, value: 0, text: "" });
    this.dK.input.addEventListener("input", () => this.change({ d_k: look.widths[Number(this.dK.input.value)] }));

    const group = make("div", { class: "explorer-control explorer-divisor", role: "group",
                                "aria-labelledby": `${this.id}-divisor` }, left);
    make("span", { id: `${this.id}-divisor`, class: "explorer-label" }, group, words.divisor);
    this.divisorButtons = look.divisors.map(([name, exponent]) => {
      const button = make("button", { type: "button", "aria-pressed": "false", "data-exponent": exponent }, group,
                          name);
      button.addEventListener("click", () => this.change({ p: exponent }));
      return button;
    });

    this.p = this.slider(left, "p", words.p, { min: 0, max: look.p_steps, value: 0, text: "" });
    this.p.input.addEventListener("input", () => this.change({ p: Number(this.p.input.value) / look.p_steps }));

    const [fewest, most] = look.positions;
    this.T = this.slider(right, "t", words.T, { min: fewest, max: most, value: fewest, text: "" });
    this.T.input.addEventListener("input", () => this.change({ T: Number(this.T.input.value) }));

    const seedBox = make("div", { class: "explorer-control explorer-seed" }, right);
    make("label", { for: `${this.id}-seed` }, seedBox, words.seed);
    this.seed = make("input", { id: `${this.id}-seed`, type: "number", step: 1, inputmode: "numeric" }, seedBox);
    this.seed.addEventListener("input", () => {
      const seed = Number(this.seed.value);
      const [low, high] = this.seedRange();
      if (this.seed.value !== "" && Number.isInteger(seed) && seed >= low && seed <= high) this.change({ seed });
    });
    this.newRow = make("button", { type: "button", class: "explorer-new-row" }, seedBox, words.new_row);
    this.newRow.addEventListener("click", () => this.change({ seed: this.nextSeed() }));

    const readout = make("div", { class: "explorer-readout", "aria-live": "polite" }, right);
    const table = make("table", { class: "explorer-readout-table" }, readout);
    make("caption", { class: "explorer-hidden" }, table, look.words.readout_caption);
    this.readouts = {};
    for (const [key, label] of look.readouts) {
      const row = make("tr", {}, table);
      make("th", { scope: "row" }, row, label);
      this.readouts[key] = make("td", { "data-readout": key }, row);
    }
    this.status = make("p", { class: "explorer-status", role: "status" }, right);
  }

  seedRange() {
    if (!this.embedded) return [0, this.look.largest_seed];
    const seeds = this.seeds();
    return [seeds[0], seeds[seeds.length - 1]];
  }

  nextSeed() {
    const shown = this.shownSeed ?? this.model.get("seed");
    if (!this.embedded) return Math.min(shown + 1, this.look.largest_seed);
    const seeds = this.seeds();
    return seeds[(seeds.indexOf(shown) + 1) % seeds.length]; // the page's rows, in a cycle
  }

  // -- picture --
  buildPicture() {
    const { look } = this;
    const [width, height] = look.size;
    const titleId = `${this.id}-picture`;
    this.picture = svg("svg", { class: "explorer-picture", viewBox: `0 0 ${width} ${height}`, role: "img",
                                "aria-labelledby": titleId, "font-size": look.font_px }, this.root);
    svg("title", { id: titleId }, this.picture, look.words.picture);
    svg("rect", { x: 0, y: 0, width, height, fill: "#ffffff" }, this.picture);
    const [scores, weights, curve] = look.panels.map((spec) => new Panel(this.picture, spec, look));
    Object.assign(this, { scorePanel: scores, weightPanel: weights, curvePanel: curve });
    const most = look.positions[1];
    this.scoreBars = scores.bars(most, "explorer-score-bar");
    this.dividedBars = scores.bars(most, "explorer-divided-bar");
    svg("line", { x1: scores.x0, x2: scores.x1, y1: scores.y(0), y2: scores.y(0), class: "explorer-zero" },
        scores.marks);
    this.weightBars = weights.bars(most, "explorer-weight-bar");
    this.evenLine = svg("line", { class: "explorer-even" }, weights.marks);
    this.winnerText = svg("text", { class: "explorer-winner", "text-anchor": "middle" }, weights.marks);
    this.curveEven = svg("line", { class: "explorer-even" }, curve.marks);
    this.curveLine = svg("polyline", { class: "explorer-curve", fill: "none" }, curve.marks);
    this.curveDots = look.widths.map(() => svg("circle", { r: look.marker_px.dot, class: "explorer-curve-dot" },
                                               curve.marks));
    this.ring = svg("circle", { r: look.marker_px.ring, class: "explorer-ring", fill: "none" }, curve.marks);
  }

  buildNumbers() {
    const { look } = this;
    const details = make("details", { class: "explorer-numbers" }, this.root);
    make("summary", {}, details, look.words.numbers);
    const table = make("table", {}, details);
    const head = make("tr", {}, make("thead", {}, table));
    for (const label of look.columns) make("th", { scope: "col" }, head, label);
    this.numbers = make("tbody", {}, table);
  }

  // -- drawing --
  update() {
    const model = this.model;
    const rows = model.get("rows");
    const wanted = model.get("seed");
    if (rows[String(wanted)]) this.shownSeed = wanted;
    else if (this.shownSeed === null || !rows[String(this.shownSeed)]) this.shownSeed = this.seeds()[0];
    const settings = { d_k: model.get("d_k"), p: model.get("p"), T: model.get("T"), seed: this.shownSeed };
    const state = stateOf(settings, rows[String(settings.seed)][String(settings.T)], this.look);
    this.status.textContent = wanted === this.shownSeed ? "" : fill(this.look.words.pending, { seed: wanted });
    this.keepAsking(wanted !== this.shownSeed);
    this.showControls(state, wanted);
    this.draw(state);
    this.showNumbers(state);
    this.state = state;
  }

  showControls(state, wanted) {
    const { look } = this;
    const set = (control, value, text) => {
      if (control.input.value !== String(value)) control.input.value = value;
      control.input.setAttribute("aria-valuetext", text);
      control.shown.textContent = text;
    };
    set(this.dK, look.widths.indexOf(state.d_k), String(state.d_k));
    set(this.p, Math.round(state.p * look.p_steps), fixed(state.p, 2));
    set(this.T, state.T, String(state.T));
    for (const button of this.divisorButtons) {
      const pressed = Math.abs(Number(button.dataset.exponent) - state.p) <= 1e-9;
      button.setAttribute("aria-pressed", String(pressed));
    }
    const [low, high] = this.seedRange();
    place(this.seed, { min: low, max: high });
    if (document.activeElement !== this.seed && this.seed.value !== String(wanted)) this.seed.value = wanted;
    const texts = readoutTexts(state, look);
    for (const [key, cell] of Object.entries(this.readouts)) {
      if (cell.textContent !== texts[key]) cell.textContent = texts[key];
    }
  }

  draw(state) {
    const { look } = this;
    const T = state.T;
    const colour = look.colours.divisors[divisorLabel(state.p, look)] ?? look.colours.other;
    for (const panel of [this.scorePanel, this.weightPanel]) {
      if (panel.shownT !== T) {
        panel.xlim = [1 - look.x_margin, T + look.x_margin];
        panel.drawXTicks(Array.from({ length: T }, (_, j) => [j + 1, String(j + 1)]));
        panel.shownT = T;
      }
    }
    this.scorePanel.drawBars(this.scoreBars, state.scores, look.bar_widths.undivided, look.colours.undivided);
    this.scorePanel.drawBars(this.dividedBars, state.divided, look.bar_widths.divided, colour);
    this.weightPanel.drawBars(this.weightBars, state.weights, look.bar_widths.undivided, colour);
    this.weightBars.forEach((rect, j) => {
      if (j < T) rect.dataset.weight = String(state.weights[j]);
      else delete rect.dataset.weight;
    });
    this.weightPanel.horizontal(this.evenLine, 1 / T);
    this.curvePanel.horizontal(this.curveEven, 1 / T);
    const top = state.weights[state.winner];
    place(this.winnerText, { x: this.weightPanel.x(state.winner + 1), y: this.weightPanel.y(top + look.winner_lift) });
    this.winnerText.textContent = fixed(top, 2);

    const points = look.widths.map((width, i) => [this.curvePanel.x(width), this.curvePanel.y(state.curve[i])]);
    this.curveLine.setAttribute("points", points.map((point) => point.join(",")).join(" "));
    this.curveLine.setAttribute("stroke", colour);
    this.curveDots.forEach((dot, i) => {
      place(dot, { cx: points[i][0], cy: points[i][1], fill: colour, "data-top-weight": String(state.curve[i]) });
    });
    const here = look.widths.indexOf(state.d_k);
    place(this.ring, { cx: points[here][0], cy: points[here][1] });
  }

  showNumbers(state) {
    const rows = [...this.numbers.rows];
    for (let j = 0; j < Math.max(rows.length, state.T); j += 1) {
      if (j >= state.T) {
        rows[j].remove();
        continue;
      }
      const row = rows[j] ?? make("tr", {}, this.numbers);
      if (!rows[j]) for (let c = 0; c < 4; c += 1) make(c === 0 ? "th" : "td", c === 0 ? { scope: "row" } : {}, row);
      const texts = [String(j + 1), fixed(state.scores[j], 3), fixed(state.divided[j], 3), fixed(state.weights[j], 4)];
      texts.forEach((text, c) => { if (row.cells[c].textContent !== text) row.cells[c].textContent = text; });
    }
  }
}

/** anywidget's entry point: draw the explorer of `model` into `el`; the returned function stops listening. */
export function render({ model, el }) {
  const view = new ExplorerView(model);
  el.append(view.root);
  return () => view.dispose();
}

/** A stand-in for the widget model on a page without a kernel: the same get, set, on, off and save_changes. */
export function pageModel(values) {
  const state = { ...values };
  const listeners = new Map();
  return {
    get: (name) => state[name],
    set(name, value) {
      if (state[name] === value) return;
      state[name] = value;
      for (const callback of listeners.get(`change:${name}`) ?? []) callback();
    },
    on(event, callback) {
      listeners.set(event, [...(listeners.get(event) ?? []), callback]);
    },
    off(event, callback) {
      listeners.set(event, (listeners.get(event) ?? []).filter((c) => c !== callback));
    },
    save_changes() {},
  };
}

/** Bring every stand-in on the page to life: hide its still picture and draw the explorer from its embedded rows. */
export function bootStandIns() {
  for (const host of document.querySelectorAll("[data-divisor-explorer]:not([data-live])")) {
    host.setAttribute("data-live", "");
    const data = JSON.parse(host.querySelector("script.explorer-data").textContent);
    if (!document.getElementById("divisor-explorer-style")) {
      make("style", { id: "divisor-explorer-style" }, document.head, data.css);
    }
    const still = host.querySelector(".explorer-still");
    if (still) still.hidden = true;
    render({ model: pageModel(data.model), el: host.querySelector(".explorer-live") });
  }
}

export default { render };
