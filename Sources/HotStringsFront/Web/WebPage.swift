/// The page, its script and its style, compiled into the binary: no files to install, no CDN, and nothing
/// inline (the `Content-Security-Policy` allows scripts and styles from the daemon only).
enum WebPage {
    static let page = HTTPResponse(status: .ok, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    static let script = HTTPResponse(status: .ok, contentType: "text/javascript; charset=utf-8",
                                     body: Array(WebPageScript.text.utf8))
    static let style = HTTPResponse(status: .ok, contentType: "text/css; charset=utf-8", body: Array(css.utf8))

    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>HotStrings</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header>
        <h1>HotStrings</h1>
        <label>Table <select data-role="table"></select></label>
        <label>Languages <select data-role="languages" multiple size="3"></select></label>
        <label>Search <input type="search" data-role="search" placeholder="key or text"></label>
        <label>Show <select data-role="filter">
        <option value="all">all keys</option>
        <option value="missing">missing in a shown language</option>
        <option value="reported-missing">reported missing by apps</option>
        <option value="reported-fallback">reported served by a fallback</option>
        <option value="state-new">catalog state: new</option>
        <option value="state-needs_review">catalog state: needs review</option>
        <option value="state-stale">catalog state: stale</option>
        </select></label>
        </header>
        <p data-role="read-only" hidden></p>
        <p data-role="status" role="status" aria-live="polite"></p>
        <main><table><thead data-role="head"></thead><tbody data-role="rows"></tbody></table></main>
        </body>
        </html>

        """

    static let css = """
        body { font: 14px system-ui, sans-serif; margin: 0; }
        header { display: flex; flex-wrap: wrap; gap: 1em; align-items: end; padding: .5em 1em; background: #f4f4f4; }
        h1 { font-size: 1.2em; margin: 0 1em 0 0; }
        [data-role=status] { margin: .5em 1em; min-height: 1.2em; }
        main { padding: 0 1em; }
        table { border-collapse: collapse; width: 100%; table-layout: fixed; }
        th, td { border-bottom: 1px solid #ddd; padding: .3em; vertical-align: top; text-align: left;
                 white-space: pre-wrap; overflow-wrap: anywhere; }
        td[data-language] { cursor: pointer; }
        td.missing { background: #fff3f3; }
        td.missing::after { content: "missing"; color: #b00; font-size: .8em; }
        th[data-pseudo]::after { content: " (pseudo)"; font-weight: normal; color: #666; }
        td[data-pseudo] { color: #555; background: #f8f8f8; cursor: default; }
        td[data-read-only] { cursor: default; }
        [data-role=read-only] { margin: .5em 1em; padding: .3em .6em; background: #fff8e0; border: 1px solid #e0c060; }
        td[data-state]::after { content: " " attr(data-state); color: #a60; font-size: .8em; }
        textarea[data-role=editor] { width: 100%; min-height: 4em; font: inherit; }
        label.form { display: block; font-size: .85em; color: #555; }
        [data-role=problem] { color: #b00; }
        .conflict { color: #b00; font-weight: bold; }
        [data-role=report] { display: block; font-weight: normal; color: #865; font-size: .8em; }

        """
}
