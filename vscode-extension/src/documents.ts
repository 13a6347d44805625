// Read-only documents: listings of library classes without source (the server's
// jcg-class: URIs, fetched with jcg/classContent) and the text answers of commands
// (jcg-info:).

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

export const CLASS_SCHEME = 'jcg-class';
export const CLASS_CONTENT_METHOD = 'jcg/classContent';
export const INFO_SCHEME = 'jcg-info';

export class ClassContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly client: () => LanguageClient | undefined) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const client = this.client();
    if (client === undefined || !client.isRunning()) {
      return `// ${uri.path}: the jcg-lsp server is not running (run "JCG: Restart Server").\n`;
    }
    try {
      const res = await client.sendRequest<{ text: string }>(CLASS_CONTENT_METHOD, { uri: uri.toString() }, token);
      return res.text;
    } catch (err) {
      return `// ${uri.path}: ${err instanceof Error ? err.message : String(err)}\n`;
    }
  }
}

export class InfoProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: INFO_SCHEME, path: '/' + name });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
