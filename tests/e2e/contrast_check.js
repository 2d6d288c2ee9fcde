() => {
  /* High contrast (test_e2e_readable.py): every visible text of the page (its own text nodes)
     against the background it stands on, from the computed styles: the ratios below 7:1. */
  const rgb = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const v = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return {r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1}; };
  const lum = c => { const f = x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1});
  const background = e => { const layers = [];
    for (let p = e; p; p = p.parentElement) { const c = rgb(getComputedStyle(p).backgroundColor); if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
    return layers.reverse().reduce((acc, c) => over(c, acc), {r: 255, g: 255, b: 255, a: 1}); };
  const opacity = e => { let o = 1; for (let p = e; p; p = p.parentElement) o *= +getComputedStyle(p).opacity; return o; };
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!e.getClientRects().length || e.closest('[hidden], .visually-hidden, svg, [aria-hidden=true]')) continue;
    const text = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
    if (!text || e.matches(':disabled, option')) continue;
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden') continue;
    const bg = background(e);
    let fg = rgb(s.color); fg = over({...fg, a: fg.a * opacity(e)}, bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 7) out.push(ratio.toFixed(2) + ' ' + e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '') + ' "' + text.slice(0, 30) + '" ' + s.color + ' on ' + JSON.stringify(bg));
  }
  return out;
}
