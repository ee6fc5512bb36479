/** The report page's only style sheet and script, inlined and pinned by hash in its CSP. */

export const STYLE = `
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --skip: #57606a; --error: #8250df; --line: #d0d7de; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #f6f8fa; }
header { padding: 20px 28px 12px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { margin: 0 0 4px; font-size: 20px; }
.meta { margin: 0 0 12px; color: #57606a; }
.counts { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 12px; }
.count { padding: 4px 10px; border-radius: 999px; background: #eaeef2; font-weight: 600; }
.count.fail { background: #ffebe9; color: var(--fail); } .count.pass { background: #dafbe1; color: var(--pass); }
.count.warn { background: #fff8c5; color: var(--warn); } .count.error { background: #fbefff; color: var(--error); }
.filters { display: flex; gap: 6px; flex-wrap: wrap; }
.filters button { font: inherit; padding: 5px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
.filters button[aria-pressed="true"] { background: #0969da; border-color: #0969da; color: #fff; }
main { padding: 16px 28px 40px; max-width: 1200px; }
.suite { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin-bottom: 16px; overflow: hidden; }
.suite > h2 { margin: 0; padding: 12px 16px 2px; font-size: 16px; overflow-wrap: anywhere; }
.suite > .target { margin: 0; padding: 0 16px 10px; color: #57606a; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
details.check { border-bottom: 1px solid #eaeef2; }
details.check:last-child { border-bottom: 0; }
details.check > summary { padding: 8px 16px; cursor: pointer; display: flex; gap: 10px; align-items: baseline; }
details.check > summary:hover { background: #f6f8fa; }
.badge { flex: none; width: 52px; text-align: center; font-size: 11px; font-weight: 700; border-radius: 4px; padding: 1px 0; color: #fff; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.warn { background: var(--warn); }
.badge.skip { background: var(--skip); } .badge.error { background: var(--error); }
.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; overflow-wrap: anywhere; }
.title { color: #57606a; overflow-wrap: anywhere; }
.expected { font-size: 11px; border: 1px solid var(--skip); color: var(--skip); border-radius: 4px; padding: 0 4px; }
.body { padding: 4px 16px 14px 78px; }
.message { margin: 4px 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.spec { margin: 0 0 8px; }
.body h3 { margin: 10px 0 4px; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: #57606a; }
pre { margin: 0; padding: 10px; background: #f6f8fa; border: 1px solid #eaeef2; border-radius: 6px; overflow: auto; max-height: 420px; font-size: 12px; }
.stale { background: #ffebe9; border: 1px solid #ffcecb; border-radius: 8px; padding: 10px 16px; margin-bottom: 16px; }
.empty { color: #57606a; }
`

export const SCRIPT = `
(() => {
  const buttons = [...document.querySelectorAll('[data-filter]')];
  const empty = document.querySelector('.empty');
  function show(filter) {
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.filter === filter));
    let any = false;
    for (const suite of document.querySelectorAll('.suite')) {
      let shown = 0;
      for (const check of suite.querySelectorAll('.check')) {
        const visible = filter === 'all' || check.dataset.status === filter;
        check.hidden = !visible;
        if (visible) shown++;
      }
      suite.hidden = shown === 0;
      any = any || shown > 0;
    }
    empty.hidden = any;
  }
  for (const button of buttons) button.addEventListener('click', () => show(button.dataset.filter));
})();
`
