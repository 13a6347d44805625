// The jcg-lsp client: starts the server, keeps one LanguageClient, and adds what
// LSP has no standard UI for (the status bar, the level picker, statistics, export,
// the class path, read-only listings of library classes, and the command of the
// caller lenses). Call hierarchy, type hierarchy, implementations, hovers,
// diagnostics, code lenses, quick fixes and progress are plain LSP features that
// vscode-languageclient wires to VS Code's own views.

import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

import { EXPLAIN_CALL, SECTION, SHOW_CALLERS, TRUST_KEY, TRUST_METHOD, serverSettings, serverSettingsOf } from './config';
import { ClassContentProvider, CLASS_SCHEME, InfoProvider, INFO_SCHEME } from './documents';
import { levelPicks, nextStatus, ServerStatus, STATUS_METHOD, statusBarView } from './status';
import { binaryName, bundledDir, INSTALL_HINT, resolveServer } from './serverPath';
import { statisticsHtml } from './statistics';

let jcg: Jcg | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  jcg = new Jcg(context);
  await jcg.start();
}

export async function deactivate(): Promise<void> {
  await jcg?.stop();
  jcg = undefined;
}

/**
 * ensureExecutable restores the executable bit of the shipped server binary, which
 * some ways of unpacking a .vsix lose.
 */
function ensureExecutable(p: string): void {
  try {
    fs.accessSync(p, fs.constants.X_OK);
  } catch {
    try {
      if (fs.existsSync(p)) {
        fs.chmodSync(p, 0o755);
      }
    } catch {
      // resolveServer reports a binary it cannot run
    }
  }
}

class Jcg {
  private client: LanguageClient | undefined;
  private readonly output: vscode.OutputChannel;
  private readonly trace: vscode.OutputChannel;
  private readonly statusItem: vscode.StatusBarItem;
  private readonly info = new InfoProvider();
  private status: ServerStatus | undefined;
  private busy = false;
  private stopping = false;
  private levelOverride: string | undefined; // the level chosen with the picker this session
  private readonly activatedAt = Date.now();
  private firstDiagnosticsLogged = false;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('JCG Language Server');
    this.trace = vscode.window.createOutputChannel('JCG Language Server Trace');
    this.statusItem = vscode.window.createStatusBarItem('jcg.status', vscode.StatusBarAlignment.Left, 10);
    this.statusItem.name = 'JCG assumption level';
    this.statusItem.command = 'jcg.selectLevel';
    const reg = (id: string, f: () => unknown) => vscode.commands.registerCommand(id, f);
    context.subscriptions.push(
      this.output,
      this.trace,
      this.statusItem,
      vscode.workspace.registerTextDocumentContentProvider(CLASS_SCHEME, new ClassContentProvider(() => this.client)),
      vscode.workspace.registerTextDocumentContentProvider(INFO_SCHEME, this.info),
      reg('jcg.selectLevel', () => this.selectLevel()),
      reg('jcg.showStatistics', () => this.showStatistics()),
      reg('jcg.exportCallGraphToFile', () => this.exportCallGraph()),
      reg('jcg.showClassPathDocument', () => this.showClassPath()),
      reg('jcg.restartServer', () => this.restart()),
      // Granting trust lets the server run the build tool (jcg.buildTool).
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        void this.client?.sendNotification(TRUST_METHOD, { trusted: true });
      }),
      // The caller lenses' command, with their arguments: not a palette command.
      vscode.commands.registerCommand(SHOW_CALLERS, (uri: string, position: { line: number; character: number }) =>
        this.showCallersAt(uri, position),
      ),
      // The "Why this call has N targets" code action's command, with its arguments.
      vscode.commands.registerCommand(EXPLAIN_CALL, (uri: string, position: { line: number; character: number }) =>
        this.explainCallAt(uri, position),
      ),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.server.path`)) {
          void this.restart();
        }
      }),
    );
  }

  async start(): Promise<void> {
    ensureExecutable(path.join(this.context.extensionPath, 'bin', bundledDir(process.platform, process.arch), binaryName(process.platform)));
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const resolved = resolveServer({
      configured: cfg.get<string>('server.path') ?? '',
      workspaceFolder: folder,
      extensionPath: this.context.extensionPath,
      platform: process.platform,
      arch: process.arch,
      pathEnv: process.env.PATH ?? '',
      exists: (p) => fs.existsSync(p),
      isExecutable: (p) => {
        try {
          fs.accessSync(p, fs.constants.X_OK);
          return fs.statSync(p).isFile();
        } catch {
          return false;
        }
      },
    });
    if ('error' in resolved) {
      this.output.appendLine(`[client] ${resolved.error}`);
      this.showStatusError('server not found', resolved.error);
      void this.notifyOnce(resolved.error, resolved.fix === 'settings' ? ['Open Settings'] : ['Open Settings', 'Show Log']);
      return;
    }
    this.output.appendLine(`[client] starting ${resolved.path} (${resolved.source})`);

    const serverOptions: ServerOptions = {
      command: resolved.path,
      args: ['serve'],
      transport: TransportKind.stdio, // appends --stdio, which the server accepts
      options: folder ? { cwd: folder } : {},
    };
    const specFile = (cfg.get<string>('specFile') ?? 'jcg-spec.txt').split(/[\\/]/).pop() || 'jcg-spec.txt';
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'java' },
        { scheme: CLASS_SCHEME },
        // The specification file, so that the server knows the version the quick
        // fixes edit and re-analyses when it is saved.
        { scheme: 'file', pattern: `**/${specFile}` },
      ],
      synchronize: { configurationSection: SECTION },
      initializationOptions: this.initializationOptions(),
      outputChannel: this.output,
      traceOutputChannel: this.trace,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: (err) => {
        void this.notifyOnce(`jcg-lsp failed to initialise: ${String(err)}`, ['Show Log']);
        return false;
      },
      errorHandler: {
        error: (_err, _msg, count) => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true }),
        closed: () => {
          if (!this.stopping) {
            this.showStatusError('server stopped', 'The jcg-lsp server stopped.');
            void this.notifyOnce(
              'The jcg-lsp server stopped unexpectedly; it was not restarted. Its log is in the "JCG Language Server" output. Fix the cause (the log says what), then run "JCG: Restart Server".',
              ['Show Log', 'Restart Server'],
            );
          }
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      middleware: {
        workspace: {
          // The server reads the "jcg" section: send only the keys it knows.
          configuration: async (params, token, next) => {
            const res = await next(params, token);
            if (!Array.isArray(res)) {
              return res;
            }
            const out: unknown[] = res.map((r: unknown, i) => (params.items[i]?.section === SECTION ? serverSettingsOf(r) : r));
            return out;
          },
        },
        handleDiagnostics: (uri, diagnostics, next) => {
          if (!this.firstDiagnosticsLogged && diagnostics.length > 0) {
            this.firstDiagnosticsLogged = true;
            this.output.appendLine(`[client] first diagnostics ${Date.now() - this.activatedAt} ms after activation`);
          }
          next(uri, diagnostics);
        },
      },
    };

    const client = new LanguageClient('jcg', 'JCG Language Server', serverOptions, clientOptions);
    this.client = client;
    this.stopping = false;
    this.status = undefined;
    this.updateStatusBar();
    this.statusItem.show();
    client.onNotification(STATUS_METHOD, (st: ServerStatus) => {
      if (st.state === 'cancelled') {
        return; // a newer build runs
      }
      this.status = nextStatus(this.status, st);
      this.updateStatusBar();
    });
    try {
      await client.start();
    } catch (err) {
      this.output.appendLine(`[client] could not start the server: ${String(err)}`);
      this.showStatusError('server not started', String(err));
      void this.notifyOnce(`jcg-lsp could not be started (${resolved.path}): ${String(err)}. ${INSTALL_HINT}`, ['Open Settings', 'Show Log']);
      return;
    }
    this.output.appendLine(`[client] server started ${Date.now() - this.activatedAt} ms after activation`);
    if (this.levelOverride !== undefined) {
      await this.setLevel(this.levelOverride);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    this.stopping = true;
    try {
      if (client.isRunning()) {
        await client.stop(5000);
      }
      await client.dispose();
    } catch (err) {
      this.output.appendLine(`[client] stopping: ${String(err)}`);
    }
  }

  async restart(): Promise<void> {
    this.output.appendLine('[client] restarting the server');
    this.notified = false;
    await this.stop();
    await this.start();
  }

  private initializationOptions(): Record<string, unknown> {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    return { ...serverSettings((k) => cfg.get(k)), [TRUST_KEY]: vscode.workspace.isTrusted };
  }

  private notified = false;

  /** notifyOnce shows one error notification per server start, with fixes. */
  private async notifyOnce(message: string, actions: string[]): Promise<void> {
    if (this.notified) {
      return;
    }
    this.notified = true;
    const pick = await vscode.window.showErrorMessage(message, ...actions);
    switch (pick) {
      case 'Open Settings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'jcg.server.path');
        break;
      case 'Show Log':
        this.output.show(true);
        break;
      case 'Restart Server':
        await this.restart();
        break;
    }
  }

  private updateStatusBar(): void {
    const v = statusBarView(this.status, this.busy);
    this.statusItem.text = v.text;
    this.statusItem.tooltip = v.tooltip;
    this.statusItem.backgroundColor = v.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  private showStatusError(short: string, detail: string): void {
    this.statusItem.text = `$(error) JCG: ${short}`;
    this.statusItem.tooltip = `${detail}\nClick to choose the assumption level; run "JCG: Restart Server" after fixing.`;
    this.statusItem.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    this.statusItem.show();
  }

  /** running returns the started client, or says why there is none. */
  private running(): LanguageClient | undefined {
    if (this.client?.isRunning()) {
      return this.client;
    }
    void vscode.window.showWarningMessage('The jcg-lsp server is not running: run "JCG: Restart Server" (the "JCG Language Server" output says why it stopped).');
    return undefined;
  }

  private async command<T>(command: string, args: unknown[] = []): Promise<T | undefined> {
    const client = this.running();
    if (client === undefined) {
      return undefined;
    }
    try {
      return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
    } catch (err) {
      void vscode.window.showErrorMessage(`jcg-lsp: ${command} failed: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  private async selectLevel(): Promise<void> {
    const picks = levelPicks(this.status).map((p) => ({ ...p, picked: p.current }));
    const pick = await vscode.window.showQuickPick(picks, {
      title: 'JCG: Select Assumption Level',
      placeHolder: 'Each level assumes more than the one before; its call graph is a subgraph of the previous one.',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (pick === undefined || pick.current) {
      return;
    }
    this.levelOverride = pick.level.name;
    await this.setLevel(pick.level.name);
  }

  private async setLevel(name: string): Promise<void> {
    this.busy = true;
    this.updateStatusBar();
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `JCG: analysing at ${name}` },
        () => this.command<string>('jcg.setLevel', [name]),
      );
    } finally {
      this.busy = false;
      this.updateStatusBar();
    }
  }

  private async showStatistics(): Promise<void> {
    const text = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'JCG: computing the call graph at every level…' },
      () => this.command<string>('jcg.statistics'),
    );
    if (text === undefined) {
      return;
    }
    const panel = vscode.window.createWebviewPanel('jcg.statistics', 'JCG Analysis Statistics', vscode.ViewColumn.Active, {
      enableScripts: false,
    });
    panel.webview.html = statisticsHtml(text, panel.webview.cspSource);
  }

  private async exportCallGraph(): Promise<void> {
    if (this.running() === undefined) {
      return;
    }
    const format = await vscode.window.showQuickPick(
      [
        { label: 'JCG JSON', id: 'jcg', ext: 'json', detail: 'The JCG benchmark format: callSites with their targets per method.' },
        { label: 'Graphviz DOT', id: 'dot', ext: 'dot', detail: 'A digraph of methods; render with dot -Tsvg.' },
        { label: 'JSON lines', id: 'json', ext: 'jsonl', detail: 'One edge per line, with the reason (assumption) it rests on.' },
      ],
      { title: 'JCG: Export Call Graph — format' },
    );
    if (format === undefined) {
      return;
    }
    const scope = await vscode.window.showQuickPick(
      [
        { label: 'Application code only', appOnly: true, detail: "Calls made by the workspace's classes and jars, to any method." },
        {
          label: 'Whole program (with libraries and the JDK)',
          appOnly: false,
          // javacc's whole program at Correct-String: 18 million edges, 12 GB of JSON lines.
          detail: 'Also every call inside the JDK: tens of millions of edges, files of gigabytes.',
        },
      ],
      { title: 'JCG: Export Call Graph — scope' },
    );
    if (scope === undefined) {
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: 'Export the call graph',
      defaultUri: folder ? vscode.Uri.joinPath(folder, `callgraph.${format.ext}`) : undefined,
      filters: { [format.label]: [format.ext] },
    });
    if (target === undefined) {
      return;
    }
    if (target.scheme !== 'file') {
      void vscode.window.showErrorMessage('JCG: the call graph can be exported only to a local file.');
      return;
    }
    const res = await this.command<{ path: string; bytes: number }>('jcg.exportCallGraph', [
      { format: format.id, path: target.fsPath, appOnly: scope.appOnly },
    ]);
    if (res !== undefined) {
      const open = await vscode.window.showInformationMessage(`JCG: exported the call graph (${res.bytes} bytes) to ${res.path}.`, 'Open');
      if (open === 'Open') {
        await vscode.window.showTextDocument(vscode.Uri.file(res.path));
      }
    }
  }

  /** showCallersAt opens the incoming calls of the method named at a position. */
  private async showCallersAt(uri: string, position: { line: number; character: number }): Promise<void> {
    const editor = await vscode.window.showTextDocument(vscode.Uri.parse(uri));
    const at = new vscode.Position(position.line, position.character);
    editor.selection = new vscode.Selection(at, at);
    // The references view starts a call hierarchy at the active editor's cursor, in
    // the direction it last showed: incoming calls are asked for explicitly.
    await vscode.commands.executeCommand('references-view.showCallHierarchy');
    await vscode.commands.executeCommand('references-view.showIncomingCalls');
  }

  /** explainCallAt shows why the call at a position has its targets (Markdown, from the server). */
  private async explainCallAt(uri: string, position: { line: number; character: number }): Promise<void> {
    const text = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'JCG: tracing the receiver of the call' },
      () => this.command<string>('jcg.explainCall', [uri, position]),
    );
    if (text === undefined) {
      return;
    }
    const doc = await vscode.workspace.openTextDocument(this.info.set('Why this call.md', text));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  private async showClassPath(): Promise<void> {
    const text = await this.command<string>('jcg.showClassPath');
    if (text === undefined) {
      return;
    }
    const uri = this.info.set('Class Path.txt', text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  }
}
