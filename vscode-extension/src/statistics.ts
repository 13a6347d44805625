// The statistics webview: the server's per-level table (tab-aligned text, one row
// per level) as an HTML table. Pure, for the unit tests.

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** parseTable splits the server's table into rows of cells (runs of 2+ spaces). */
export function parseTable(text: string): { rows: string[][]; notes: string[] } {
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    const cells = line.trim().split(/\s{2,}/);
    if (cells.length > 2 && (rows.length === 0 || cells.length === rows[0]?.length)) {
      rows.push(cells);
    } else {
      notes.push(line.trim());
    }
  }
  return { rows, notes };
}

export function statisticsHtml(text: string, cspSource: string): string {
  const { rows, notes } = parseTable(text);
  const [head, ...body] = rows;
  const table =
    head === undefined
      ? `<pre>${escapeHtml(text)}</pre>`
      : `<table><thead><tr>${head.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${body
          .map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th>${escapeHtml(c)}</th>` : `<td>${escapeHtml(c)}</td>`)).join('')}</tr>`)
          .join('')}</tbody></table>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>JCG Analysis Statistics</title>
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
table { border-collapse: collapse; font-family: var(--vscode-editor-font-family); }
th, td { padding: 2px 10px; text-align: right; border-bottom: 1px solid var(--vscode-panel-border); }
thead th { position: sticky; top: 0; background: var(--vscode-editor-background); }
p { color: var(--vscode-descriptionForeground); }
</style></head><body>
<h2>Call graphs per assumption level</h2>
${table}
${notes.map((n) => `<p>${escapeHtml(n)}</p>`).join('\n')}
</body></html>`;
}
