// The statistics webview: the server's per-level tables (space-aligned text, one row
// per level: all sites, then the application's own) as HTML tables, with the notes
// between them. Pure, for the unit tests.

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** A block of the server's text: a table (its header first) or a line of prose. */
export type Block = { rows: string[][] } | { note: string };

/**
 * parseTable splits the server's text into blocks in order: tables, whose rows are
 * lines of 3+ cells (separated by runs of 2+ spaces) with as many cells as the
 * table's header (a row of another width starts a new table), and notes.
 */
export function parseTable(text: string): Block[] {
  const blocks: Block[] = [];
  let table: string[][] | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      table = undefined;
      continue;
    }
    const cells = line.trim().split(/\s{2,}/);
    if (cells.length <= 2) {
      blocks.push({ note: line.trim() });
      table = undefined;
    } else if (table !== undefined && cells.length === table[0]?.length) {
      table.push(cells);
    } else {
      table = [cells];
      blocks.push({ rows: table });
    }
  }
  return blocks;
}

function tableHtml([head, ...body]: string[][]): string {
  return `<table><thead><tr>${(head ?? []).map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${body
    .map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th>${escapeHtml(c)}</th>` : `<td>${escapeHtml(c)}</td>`)).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

export function statisticsHtml(text: string, cspSource: string): string {
  const blocks = parseTable(text);
  const content = blocks.some((b) => 'rows' in b)
    ? blocks.map((b) => ('rows' in b ? tableHtml(b.rows) : `<p>${escapeHtml(b.note)}</p>`)).join('\n')
    : `<pre>${escapeHtml(text)}</pre>`;
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
${content}
</body></html>`;
}
