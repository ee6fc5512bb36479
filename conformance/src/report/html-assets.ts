/** The report page's only style sheet and script, inlined and pinned by hash in its CSP. */

export const STYLE = `
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --skip: #6e7781; --error: #8250df; --expected: #0a5a8a; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #f6f8fa; }
header { padding: 18px 28px 14px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { margin: 0 0 2px; font-size: 20px; }
.meta { margin: 0 0 10px; color: var(--muted); }
.headline { padding: 10px 14px; border-radius: 8px; font-size: 15px; margin-bottom: 10px; border: 1px solid; }
.headline.passed { background: #dafbe1; border-color: #aceebb; color: #116329; }
.headline.failed { background: #ffebe9; border-color: #ffcecb; color: #a40e26; }
.headline.could-not-run { background: #fbefff; border-color: #ecd8ff; color: #6639ba; }
.counts { display: flex; gap: 8px; flex-wrap: wrap; }
.count { padding: 3px 10px; border-radius: 999px; background: #eaeef2; font-weight: 600; color: var(--skip); }
.count.pass { background: #dafbe1; color: var(--pass); } .count.fail { background: #ffebe9; color: var(--fail); }
.count.warn { background: #fff8c5; color: var(--warn); } .count.error { background: #fbefff; color: var(--error); }
.count.expected { background: #ddf4ff; color: var(--expected); }
main { padding: 16px 28px 40px; max-width: 1240px; }
.overview { margin-bottom: 16px; }
.matrices { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; }
.matrix-box, .changes { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; }
.matrix-box h2, .changes h2 { margin: 0; font-size: 16px; }
.matrix-box .target, .changes .target { margin: 0 0 8px; color: var(--muted); overflow-wrap: anywhere; }
.matrix-box .target { max-width: 420px; font-size: 12.5px; }
table.matrix { border-collapse: separate; border-spacing: 3px; }
table.matrix th { font-weight: 600; text-align: left; padding: 0 8px 0 0; white-space: nowrap; font-size: 13px; }
table.matrix thead th { color: var(--muted); font-weight: 500; text-align: center; padding: 0 4px; }
table.matrix thead th:first-child { text-align: left; }
table.matrix tbody th { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; font-weight: 500; }
table.matrix td { padding: 0; }
.cell { display: block; min-width: 96px; padding: 3px 8px; border-radius: 4px; text-align: center; text-decoration: none; font-weight: 600; font-size: 12.5px; color: #fff; }
.cell small { display: block; font-weight: 400; font-size: 11px; opacity: .92; }
.cell:hover, .cell:focus { outline: 2px solid #0969da; outline-offset: 1px; }
.cell.pass { background: var(--pass); } .cell.fail { background: var(--fail); } .cell.warn { background: #bf8700; }
.cell.skip { background: var(--skip); } .cell.error { background: var(--error); } .cell.expected { background: var(--expected); }
.cell.none { background: #eaeef2; color: var(--muted); font-weight: 400; }
table.matrix tr.verdicts th { font-family: inherit; font-size: 12px; color: var(--muted); font-weight: 500; text-align: left; }
.verdict { display: block; min-width: 96px; padding: 2px 8px; border-radius: 4px; text-align: center; font-weight: 700; font-size: 12px; text-transform: uppercase; letter-spacing: .02em; border: 2px solid; background: #fff; }
.verdict.pass { color: var(--pass); border-color: var(--pass); } .verdict.fail { color: var(--fail); border-color: var(--fail); }
.verdict.error { color: var(--error); border-color: var(--error); } .verdict.skip { color: var(--muted); border-color: var(--skip); text-transform: none; font-weight: 600; }
.legend { color: var(--muted); font-size: 12.5px; margin: 0 0 10px; }
.legend .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
.swatch.pass { background: var(--pass); } .swatch.fail { background: var(--fail); } .swatch.warn { background: #bf8700; }
.swatch.skip { background: var(--skip); } .swatch.error { background: var(--error); } .swatch.expected { background: var(--expected); }
.changes { margin-bottom: 16px; }
.change-groups { display: flex; gap: 24px; flex-wrap: wrap; }
.change-group h3 { margin: 4px 0; font-size: 13px; }
.change-group ul { margin: 0; padding-left: 18px; }
.change-group code { font-size: 12px; overflow-wrap: anywhere; }
.change { color: var(--muted); }
.filters { display: flex; gap: 6px; flex-wrap: wrap; margin: 0 0 12px; }
.filters button { font: inherit; padding: 5px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
.filters button[aria-pressed="true"] { background: #0969da; border-color: #0969da; color: #fff; }
.suite { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin-bottom: 16px; overflow: hidden; }
.suite > h2 { margin: 0; padding: 12px 16px 2px; font-size: 16px; overflow-wrap: anywhere; }
.suite > .target { margin: 0; padding: 0 16px 10px; color: var(--muted); border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.area > h3 { margin: 0; padding: 8px 16px 4px; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); background: #f6f8fa; border-bottom: 1px solid #eaeef2; }
details.check { border-bottom: 1px solid #eaeef2; }
details.check > summary { padding: 7px 16px; cursor: pointer; display: flex; gap: 10px; align-items: baseline; }
details.check > summary:hover, details.passed > summary:hover, details.diagram > summary:hover { background: #f6f8fa; }
details.passed > summary { padding: 7px 16px; cursor: pointer; color: var(--pass); font-weight: 600; border-bottom: 1px solid #eaeef2; }
details.passed[open] > summary { color: var(--muted); }
.badge { flex: none; width: 52px; text-align: center; font-size: 11px; font-weight: 700; border-radius: 4px; padding: 1px 0; color: #fff; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.warn { background: var(--warn); }
.badge.skip { background: var(--skip); } .badge.error { background: var(--error); } .badge.expected { background: var(--expected); }
.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; overflow-wrap: anywhere; }
.title { color: var(--muted); overflow-wrap: anywhere; }
summary > span.expected { font-size: 11px; border: 1px solid var(--expected); color: var(--expected); border-radius: 4px; padding: 0 4px; }
.body { padding: 4px 16px 14px 78px; }
.message { margin: 4px 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.spec { margin: 0 0 8px; }
.body h4 { margin: 10px 0 4px; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
pre { margin: 0; padding: 10px; background: #f6f8fa; border: 1px solid #eaeef2; border-radius: 6px; overflow: auto; max-height: 420px; font-size: 12px; }
details.diagram { border-bottom: 1px solid var(--line); }
details.diagram > summary { padding: 8px 16px; cursor: pointer; font-weight: 600; }
details.diagram .muted { color: var(--muted); font-weight: 400; }
details.diagram .marked { margin-left: 6px; font-size: 11px; color: #fff; background: var(--fail); border-radius: 4px; padding: 1px 6px; }
.diagram-body { padding: 4px 16px 14px; }
.diagram-failures { margin: 4px 0 10px; padding-left: 18px; }
.diagram-failures li { overflow-wrap: anywhere; } .diagram-failures li.fail, .diagram-failures li.error { color: var(--fail); }
.svg-box { overflow-x: auto; border: 1px solid #eaeef2; border-radius: 6px; background: #fff; }
.transcript-text { margin-top: 8px; } .transcript-text > summary { cursor: pointer; color: #0969da; }
.transcript-text pre { white-space: pre-wrap; overflow-wrap: anywhere; }
svg.seq { display: block; max-width: 100%; height: auto; font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; }
svg.seq text { fill: #1f2328; }
svg.seq .lane rect { fill: #f6f8fa; stroke: var(--line); }
svg.seq .lane text { font: 600 12px system-ui, sans-serif; }
svg.seq .lifeline { stroke: #afb8c1; stroke-dasharray: 4 4; }
svg.seq .msg line { stroke: #0969da; stroke-width: 1.5; } svg.seq .msg path { fill: #0969da; }
svg.seq .msg.response line { stroke: #57606a; stroke-dasharray: 6 3; } svg.seq .msg.response path { fill: #57606a; }
svg.seq .msg.notification line { stroke: #8250df; } svg.seq .msg.notification path { fill: #8250df; }
svg.seq .msg.error line { stroke: var(--fail); stroke-dasharray: 6 3; } svg.seq .msg.error path, svg.seq .msg.error text { fill: var(--fail); }
svg.seq .msg.cancel line { stroke: #bc4c00; stroke-width: 2; } svg.seq .msg.cancel path, svg.seq .msg.cancel text { fill: #bc4c00; font-weight: 700; }
svg.seq .proc path, svg.seq .proc rect { fill: #1a7f37; } svg.seq .proc.exit rect { fill: #57606a; }
svg.seq .proc text { fill: #116329; font-style: italic; } svg.seq .proc.exit text { fill: #57606a; }
svg.seq .log circle { fill: #fff; stroke: #9a6700; stroke-width: 1.5; } svg.seq .log text { fill: #7d4e00; font-style: italic; }
svg.seq .gap text { fill: var(--muted); font-style: italic; }
svg.seq .step .bar { fill: #eaeef2; } svg.seq .step text { font: 600 11.5px system-ui, sans-serif; fill: #24292f; }
svg.seq .band { fill: #ffebe9; stroke: var(--fail); stroke-width: 1.5; }
svg.seq .band.expected { fill: #ddf4ff; stroke: var(--expected); } svg.seq .band.error { fill: #fbefff; stroke: var(--error); }
svg.seq .step.failed .bar { fill: var(--fail); } svg.seq .step.failed text { fill: #fff; }
svg.seq .step.failed.expected .bar { fill: var(--expected); } svg.seq .step.failed.error .bar { fill: var(--error); }
svg.seq text.time { font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; fill: var(--muted); text-anchor: end; }
svg.seq .step text.time { font-weight: 600; fill: #24292f; } svg.seq .step.failed text.time { fill: var(--fail); }
.stale { background: #ffebe9; border: 1px solid #ffcecb; border-radius: 8px; padding: 10px 16px; margin-bottom: 16px; }
.empty { color: var(--muted); }
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
      // Folded passes and server areas with nothing left to show go too; a pass filter unfolds.
      for (const group of suite.querySelectorAll('details.passed, .area')) {
        group.hidden = !group.querySelector('.check:not([hidden])');
        if (group.matches('details.passed') && filter === 'pass') group.open = true;
      }
      suite.hidden = shown === 0;
      any = any || shown > 0;
    }
    empty.hidden = any;
  }
  for (const button of buttons) button.addEventListener('click', () => show(button.dataset.filter));
  // A link into the detail (a matrix cell, a step) must not land on something a filter hid.
  document.addEventListener('click', (event) => {
    const link = event.target.closest('a[href^="#suite-"]');
    const target = link && document.getElementById(link.getAttribute('href').slice(1));
    if (target && target.closest('[hidden]')) show('all');
  });
})();
`
