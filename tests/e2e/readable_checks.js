() => {
  /* Text at 200 % (test_e2e_readable.py): what sticks out, what is cut, which target is small. */
  const out = [];
  const seen = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('[hidden], .visually-hidden'); };
  const name = e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '')
    + ' "' + (e.textContent || e.value || '').trim().replace(/\s+/g, ' ').slice(0, 30) + '"';
  const inScroller = e => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll') return true; } return false; };
  if (document.documentElement.scrollWidth > innerWidth) out.push('page scrolls sideways ' + document.documentElement.scrollWidth);
  for (const e of document.querySelectorAll('main *, header *')) {
    if (!seen(e)) continue;
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    /* a data table may scroll in its own box (WCAG 1.4.10's exception); nothing else sticks out */
    if (r.right > innerWidth + 1 && !inScroller(e)) out.push('sticks out ' + name(e));
    /* a label or a name cut: clipped or with an ellipsis (a field's own value scrolls in it) */
    if (!e.matches('input, select, textarea') && (s.overflowX === 'hidden' || s.textOverflow === 'ellipsis') && e.scrollWidth > e.clientWidth + 1) out.push('cut ' + name(e));
    /* a target: buttons, fields, summaries, links that stand alone (not inside a sentence) */
    const target = e.matches('button, select, textarea, summary, input:not([type=hidden]):not([type=radio]):not([type=checkbox])')
      || (e.matches('a[href]') && s.display !== 'inline') || e.matches('label:has(> input[type=radio], > input[type=checkbox])');
    if (target && (r.width < 43.5 || r.height < 43.5)) out.push('small ' + Math.round(r.width) + 'x' + Math.round(r.height) + ' ' + name(e));
  }
  return out;
}
