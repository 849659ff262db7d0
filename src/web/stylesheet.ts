// The pages' stylesheet. Every colour and the font come from the --ak-* variables of the theme
// (theme.ts), which are prepended when the file is served.
export const STYLESHEET = `
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-family: var(--ak-font); color: var(--ak-text); background: var(--ak-background); line-height: 1.5; }
a { color: var(--ak-primary); }
:focus-visible { outline: 3px solid var(--ak-primary); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.trap { position: absolute; left: -9999px; width: 1px; height: 1px; overflow: hidden; }
.skip:focus { left: 1rem; top: 1rem; background: var(--ak-surface); padding: .5rem 1rem; z-index: 1; }
header.top { background: var(--ak-surface); border-bottom: 1px solid var(--ak-border); }
header.top .bar { max-width: 64rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; }
.brand { display: flex; align-items: center; gap: .5rem; font-weight: 600; }
.brand img { max-height: 2rem; width: auto; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; }
nav a { text-decoration: none; padding: .25rem 0; border-bottom: 2px solid transparent; }
nav a[aria-current="page"] { border-bottom-color: var(--ak-primary); font-weight: 600; }
main { max-width: 64rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
body.wide main, body.wide header.top .bar { max-width: 80rem; }
body.wide header.top nav { order: 3; flex-basis: 100%; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.125rem; margin: 0 0 .75rem; }
.card { background: var(--ak-surface); border: 1px solid var(--ak-border); border-radius: .5rem; padding: 1rem 1.25rem; margin-bottom: 1rem; }
.grid { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr)); }
.figure dt { color: var(--ak-muted); font-size: .875rem; }
.figure dd { margin: 0; font-size: 1.25rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.muted { color: var(--ak-muted); }
.answers { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; }
.answers dt { color: var(--ak-muted); }
.answers dd { margin: 0; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--ak-border); vertical-align: top; }
th { font-size: .875rem; color: var(--ak-muted); font-weight: 600; }
td.num, th.num { text-align: right; }
td time, td.num { white-space: nowrap; }
.table-wrap { overflow-x: auto; }
.badge { display: inline-block; padding: 0 .5rem; border-radius: 1rem; border: 1px solid var(--ak-border); font-size: .875rem; }
.badge.refunded, .badge.rejected { color: var(--ak-danger); border-color: var(--ak-danger); }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input, select, textarea { font: inherit; color: inherit; background: var(--ak-surface); border: 1px solid var(--ak-muted); border-radius: .375rem; padding: .5rem; width: 100%; max-width: 32rem; }
textarea { min-height: 6rem; }
label.check { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; }
label.check input { width: auto; margin-top: .3rem; }
.copy { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.copy input { flex: 1 1 20rem; }
button, .button { font: inherit; cursor: pointer; border-radius: .375rem; padding: .5rem 1rem; border: 1px solid var(--ak-primary); background: var(--ak-primary); color: var(--ak-on-primary); text-decoration: none; display: inline-block; }
button.secondary { background: transparent; color: var(--ak-primary); }
form.inline { display: inline; }
.filters { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: flex-end; }
.filters .field { flex: 1 1 9rem; min-width: 0; }
.filters .field.grow { flex: 3 1 14rem; }
.filters .field.date { flex: 1 1 9rem; max-width: 12rem; }
.filters label { margin-top: 0; }
.filters input, .filters select { max-width: none; height: 2.625rem; }
.filters .actions { margin-top: 0; padding-bottom: .25rem; }
.filters .hint { flex-basis: 100%; margin: 0; font-size: .875rem; }
.heading { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; margin-bottom: 1rem; }
.heading h1 { margin: 0; }
.table-foot { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; }
.columns { display: grid; gap: 0 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 24rem), 1fr)); align-items: start; }
.form-grid { display: grid; gap: 0 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); }
.form-grid input, .form-grid select { max-width: none; }
.figure dd a { font-size: .875rem; font-weight: 400; }
.actions { margin-top: 1rem; display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.error { color: var(--ak-danger); font-weight: 600; }
.notice { border-left: 4px solid var(--ak-primary); padding: .5rem 1rem; background: var(--ak-surface); margin-bottom: 1rem; }
.pager { display: flex; gap: 1rem; align-items: center; margin-top: 1rem; }
.narrow { max-width: 28rem; margin: 3rem auto; }
.grid.totals { grid-template-columns: repeat(3, 1fr); }
.chart { margin: 1rem 0 0; display: grid; grid-template-columns: auto 1fr; column-gap: .5rem; }
.chart svg { grid-column: 2; width: 100%; height: 10rem; display: block; border-bottom: 1px solid var(--ak-text); border-left: 1px solid var(--ak-text); }
.chart line.gridline { stroke: var(--ak-border); stroke-width: 1; }
.count-axis { grid-column: 1; display: flex; flex-direction: column; justify-content: space-between; align-items: flex-end; height: 10rem; margin: -.5rem 0; }
.count-axis span, .date-axis span { font-size: .75rem; color: var(--ak-muted); font-variant-numeric: tabular-nums; line-height: 1rem; }
.date-axis { grid-column: 2; display: flex; justify-content: space-between; margin-top: .25rem; }
.chart figcaption { grid-column: 1 / -1; margin-top: .5rem; }
.chart-days { margin-top: .75rem; }
.chart-days summary { cursor: pointer; color: var(--ak-primary); }
.chart rect.clicks { fill: var(--ak-muted); }
.chart rect.purchases { fill: var(--ak-primary); }
.legend::before { content: ""; display: inline-block; width: .75rem; height: .75rem; margin: 0 .25rem 0 .5rem; vertical-align: middle; }
.legend.clicks::before { background: var(--ak-muted); }
.legend.purchases::before { background: var(--ak-primary); }
.chart.bands svg, .chart.bands .count-axis { height: 5rem; }
.band-name { grid-column: 1 / -1; margin: .75rem 0 .5rem; font-size: .875rem; font-weight: 600; }
.chart path.clicks { fill: var(--ak-muted); }
.chart path.signups { fill: var(--ak-text); }
.chart path.conversions { fill: var(--ak-primary); }
.funnel { list-style: none; margin: 0 0 1rem; padding: 0; display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; }
.funnel li { display: flex; flex-direction: column; }
.funnel .name { color: var(--ak-muted); font-size: .875rem; }
.funnel li + li .name::before { content: "→ " / ""; }
.funnel strong { font-size: 1.25rem; font-variant-numeric: tabular-nums; }
a[aria-current="true"] { font-weight: 600; }
[hidden] { display: none !important; }
@media (max-width: 30rem) {
  .card { padding: .75rem; }
  th, td { padding: .5rem .25rem; }
}
`
