/// The page's script (served as /app.js): loads the tables through the JSON API, renders the rows that are
/// shown (at most `LIMIT`, so a 20,000-key table stays responsive), edits in place, and follows the daemon's
/// reloads over `/api/events`. The automation contract (docs/WEB.md) is in the `data-` attributes.
enum WebPageScript {
    static let text = prologue + forms + body

    private static let prologue = #"""
        "use strict";
        (() => {
          const LIMIT = 200;
          const $ = (selector) => document.querySelector(selector);
          const state = { tables: [], table: null, development: "en", languages: [], shown: [],
                          values: {}, rules: {}, reports: {}, states: {}, pseudo: [], readOnly: null,
                          editing: null };
          const status = (text, isError) => {
            const element = $("[data-role=status]");
            element.textContent = text;
            element.classList.toggle("conflict", Boolean(isError));
          };
          const api = async (path, options) => {
            const response = await fetch(path, options);
            const body = await response.json().catch(() => ({}));
            if (!response.ok || body.ok === false) {
              throw new Error(body.error ? body.error.message : response.status + " " + response.statusText);
            }
            return body;
          };

          // The daemon's verdict on the text of an editor, asked as the translator types (`/api/check`: the check
          // `set` makes, so the page has no grammar of its own): one question in flight per editor, the latest
          // text asked again when it changed meanwhile. `verdict` keeps the last answer and the value it is for.
          function asker(request, verdict, shown) {
            let asking = false;
            let again = false;
            return async () => {
              if (asking) {
                again = true;
                return;
              }
              asking = true;
              try {
                do {
                  again = false;
                  const body = request();
                  let problems;
                  try {
                    const answer = await api("/api/check", { method: "POST",
                                                             headers: { "Content-Type": "application/json" },
                                                             body: JSON.stringify(body) });
                    problems = answer.problems || [];
                  } catch (error) {
                    problems = [{ severity: "error", message: error.message }];
                  }
                  if (!again) {
                    verdict.value = body.value;
                    verdict.problems = problems;
                    shown();
                  }
                } while (again);
              } finally {
                asking = false;
              }
            };
          }
          // The problems of every verdict in the editor's problem line, one a line: `error: …` or `warning: …`.
          const showProblems = (element, verdicts) => {
            const problems = verdicts.flatMap((verdict) => verdict.problems);
            element.textContent = problems.map((p) => p.severity + ": " + p.message).join("\n");
            element.hidden = problems.length === 0;
            element.dataset.severity = problems.some((p) => p.severity === "error") ? "error" :
              problems.length > 0 ? "warning" : "";
          };
          // The daemon's first error about the text an editor holds now, if it answered for that text.
          const refusal = (pairs) => {
            for (const { editor, verdict } of pairs) {
              if (verdict.value !== editor.value) continue;
              const error = verdict.problems.find((p) => p.severity === "error");
              if (error) return error.message;
            }
            return "";
          };

        """#

    private static let body = #"""
          async function loadTables() {
            const [answer, health] = await Promise.all([api("/api/tables"), api("/api/status")]);
            // A bundle managed by pull takes no edits (its files are a release's): shown, not edited.
            state.readOnly = health.readOnly || null;
            const notice = $("[data-role=read-only]");
            notice.textContent = state.readOnly ? "Read-only: " + state.readOnly : "";
            notice.hidden = !state.readOnly;
            document.body.toggleAttribute("data-read-only", Boolean(state.readOnly));
            state.tables = answer.tables;
            state.development = answer.developmentLanguage || "en";
            state.pseudo = answer.pseudoLanguages || [];
            const select = $("[data-role=table]");
            select.replaceChildren(...state.tables.map((t) => new Option(t.table, t.table)));
            const wanted = new URLSearchParams(location.search).get("table");
            const initial = state.tables.find((t) => t.table === wanted) ||
              state.tables.find((t) => t.table === "Localizable") || state.tables[0];
            if (initial) select.value = initial.table;
            await chooseTable(select.value);
          }

          async function chooseTable(name) {
            state.table = name;
            const entry = state.tables.find((t) => t.table === name);
            state.languages = entry ? entry.languages.slice() : [];
            // The development language first, the pseudo-languages (made from it) last.
            const rank = (l) => (l === state.development ? 0 : state.pseudo.includes(l) ? 2 : 1);
            state.languages.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
            const picker = $("[data-role=languages]");
            picker.replaceChildren(...state.languages.map((l) => {
              const option = new Option(l, l, true, true);
              return option;
            }));
            state.shown = state.languages.slice();
            state.values = {};
            state.rules = {};
            state.reports = {};
            state.states = {};
            await Promise.all(state.languages.map(loadLanguage).concat([loadReports(), loadStates()]));
            render();
            status("");
          }

          async function loadLanguage(language) {
            const query = "/api/table?table=" + encodeURIComponent(state.table) +
              "&language=" + encodeURIComponent(language);
            try {
              const answer = await api(query);
              state.values[language] = answer.entries;
              state.rules[language] = answer.rules || {};
            } catch (error) {
              state.values[language] = {};
              state.rules[language] = {};
            }
          }

          // What the apps reported missing or served through a fallback (/api/missing), by key.
          async function loadReports() {
            try {
              const answer = await api("/api/missing?table=" + encodeURIComponent(state.table));
              const reports = {};
              for (const entry of answer.entries) (reports[entry.key] = reports[entry.key] || []).push(entry);
              state.reports = reports;
            } catch (error) {
              state.reports = {};
            }
          }
          // The String Catalog states other than translated (/api/states), by key and language.
          async function loadStates() {
            try {
              state.states = (await api("/api/states?table=" + encodeURIComponent(state.table))).states;
            } catch (error) {
              state.states = {};
            }
          }
          const stateOf = (key, language) => (state.states[key] || {})[language];
          const reportedAs = (key, kind) => (state.reports[key] || []).some((entry) => entry.kind === kind);
          const reportText = (entry) => entry.kind + " in " + entry.language +
            (entry.servedBy ? " (served by " + entry.servedBy + ")" : "") + ", " + entry.count + "\u00d7";

          function keys() {
            const all = new Set();
            for (const language of state.languages) {
              for (const key of Object.keys(state.values[language] || {})) all.add(key);
            }
            return Array.from(all).sort();
          }

          function matching() {
            const search = $("[data-role=search]").value.toLowerCase();
            const filter = $("[data-role=filter]").value;
            const onlyMissing = filter === "missing";
            const wantedState = filter.startsWith("state-") ? filter.slice("state-".length) : null;
            // A key the apps asked for may be in no table yet: it gets a row of missing cells to fill in.
            const reported = filter.startsWith("reported-") ? filter.slice("reported-".length) : null;
            const candidates = reported === null ? keys() :
              Object.keys(state.reports).filter((key) => reportedAs(key, reported)).sort();
            return candidates.filter((key) => {
              if (onlyMissing && !state.shown.some((l) => (state.values[l] || {})[key] === undefined)) return false;
              if (wantedState && !state.shown.some((l) => stateOf(key, l) === wantedState)) return false;
              if (!search) return true;
              if (key.toLowerCase().includes(search)) return true;
              return state.shown.some((l) => ((state.values[l] || {})[key] || "").toLowerCase().includes(search));
            });
          }

          function render() {
            const head = document.createElement("tr");
            const keyHeader = document.createElement("th");
            keyHeader.textContent = "Key";
            head.append(keyHeader, ...state.shown.map((l) => {
              const th = document.createElement("th");
              th.textContent = l;
              if (state.pseudo.includes(l)) {
                th.dataset.pseudo = "true";
                th.title = "pseudo-language made from " + state.development + ": read-only";
              }
              return th;
            }));
            $("[data-role=head]").replaceChildren(head);
            const found = matching();
            const rows = found.slice(0, LIMIT).map(rowFor);
            $("[data-role=rows]").replaceChildren(...rows);
            if (found.length > LIMIT) status("showing " + LIMIT + " of " + found.length + " keys: search to narrow");
          }

          function cell(key, language) {
            const td = document.createElement("td");
            td.dataset.language = language;
            td.tabIndex = 0;
            if (stateOf(key, language)) td.dataset.state = stateOf(key, language);
            if (state.pseudo.includes(language)) td.dataset.pseudo = "true";
            if (state.readOnly) td.dataset.readOnly = "true";
            const value = (state.values[language] || {})[key];
            if (value === undefined) {
              td.classList.add("missing");
              td.setAttribute("aria-label", "missing");
            } else {
              td.textContent = value;
            }
            td.addEventListener("click", () => openEditor(td, key, language));
            td.addEventListener("keydown", (event) => {
              if (event.key === "Enter" && event.target === td) {
                event.preventDefault();
                openEditor(td, key, language);
              }
            });
            return td;
          }

          function openEditor(td, key, language) {
            if (state.editing && state.editing.td === td) return;
            if (state.readOnly) {
              status("read-only: " + state.readOnly);
              return;
            }
            if (state.pseudo.includes(language)) {
              status(language + " is a pseudo-language made from " + state.development + ": edit " +
                     state.development + " instead");
              return;
            }
            closeEditor();
            const forms = formsOf(ruleOf(key, language));
            if (forms.length > 0) return openFormsEditor(td, key, language, forms);
            const original = (state.values[language] || {})[key];
            const editor = document.createElement("textarea");
            editor.dataset.role = "editor";
            editor.setAttribute("aria-label", "value of " + key + " in " + language);
            editor.value = original === undefined ? "" : original;
            const { problem, save, cancel } = editorControls();
            const verdict = { value: null, problems: [] };
            const check = asker(() => ({ key, value: editor.value, language, table: state.table }), verdict,
                                () => showProblems(problem, [verdict]));
            answerKeys(editor, check);
            td.replaceChildren(editor, problem, save, cancel);
            td.classList.remove("missing");
            state.editing = { td, key, language, original, editor, conflict: null, verdicts: [{ editor, verdict }],
                              current: () => (state.values[language] || {})[key] };
            check();
            editor.focus();
          }

          // What every editor has beside its textareas: the problem line, Save and Cancel.
          function editorControls() {
            const problem = document.createElement("div");
            problem.dataset.role = "problem";
            const save = document.createElement("button");
            save.type = "button";
            save.dataset.action = "save";
            save.textContent = "Save";
            const cancel = document.createElement("button");
            cancel.type = "button";
            cancel.textContent = "Cancel";
            save.addEventListener("click", saveEditor);
            cancel.addEventListener("click", () => { closeEditor(); status("cancelled"); });
            return { problem, save, cancel };
          }

          // A textarea is checked as you type; Ctrl+Enter saves, Escape cancels.
          function answerKeys(editor, check) {
            editor.addEventListener("input", check);
            editor.addEventListener("keydown", (event) => {
              if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                saveEditor();
              } else if (event.key === "Escape") {
                event.preventDefault();
                closeEditor();
                status("cancelled");
              }
            });
          }

          function closeEditor() {
            const editing = state.editing;
            if (!editing) return;
            state.editing = null;
            const row = editing.td.parentElement;
            if (row) editing.td.replaceWith(cell(editing.key, editing.language));
          }

          async function saveEditor() {
            const editing = state.editing;
            if (!editing) return;
            if (editing.forms) return saveForms(editing);
            const value = editing.editor.value;
            if (editing.conflict !== null) {
              status("conflict: the value changed meanwhile to \u201c" + editing.conflict + "\u201d; yours is \u201c" +
                     value + "\u201d. Not saved.", true);
              return;
            }
            const refused = refusal(editing.verdicts);
            if (refused) {
              status("not saved: " + refused, true);
              return;
            }
            try {
              await api("/api/set", { method: "POST", headers: { "Content-Type": "application/json" },
                                      body: JSON.stringify({ key: editing.key, value, language: editing.language,
                                                             table: state.table }) });
              state.values[editing.language] = state.values[editing.language] || {};
              state.values[editing.language][editing.key] = value;
              if (state.editing === editing) closeEditor();
              status("saved " + editing.key + " in " + editing.language);
            } catch (error) {
              status("not saved: " + error.message, true);
            }
          }

          async function applyReload(event) {
            const touched = new Set();
            for (const change of event.changes || []) {
              if (change.table === state.table && state.languages.includes(change.language)) {
                touched.add(change.language);
              }
              if (change.table === state.table && !state.languages.includes(change.language)) {
                await loadTables();
                return;
              }
            }
            if (touched.size === 0) return;
            const editing = state.editing;
            await Promise.all(Array.from(touched).map(loadLanguage).concat([loadStates()]));
            if (editing && state.editing === editing && touched.has(editing.language)) {
              const now = editing.current();
              if (!editing.saving && now !== editing.original && (editing.forms || now !== editing.editor.value)) {
                editing.conflict = now === undefined ? "" : now;
                status("conflict: the value changed meanwhile to \u201c" + editing.conflict + "\u201d; yours is \u201c" +
                       editing.editor.value + "\u201d", true);
              }
              const rows = $("[data-role=rows]");
              for (const row of Array.from(rows.children)) {
                if (row.contains(editing.td)) continue;
                row.replaceWith(rowFor(row.dataset.key));
              }
              return;
            }
            render();
          }

          function rowFor(key) {
            const row = document.createElement("tr");
            row.dataset.key = key;
            row.dataset.table = state.table;
            const keyCell = document.createElement("th");
            keyCell.scope = "row";
            keyCell.textContent = key;
            for (const entry of state.reports[key] || []) {
              const note = document.createElement("small");
              note.dataset.role = "report";
              note.dataset.kind = entry.kind;
              note.textContent = reportText(entry);
              keyCell.append(note);
            }
            row.append(keyCell, ...state.shown.map((l) => cell(key, l)));
            return row;
          }

          function listen() {
            const events = new EventSource("/api/events");
            events.onmessage = (message) => {
              let event;
              try { event = JSON.parse(message.data); } catch (error) { return; }
              if (event.event === "reload") applyReload(event);
              else if (event.event === "resync") loadTables();
              else if (event.event === "error") status("daemon: " + (event.message || "error"), true);
            };
          }

          document.addEventListener("DOMContentLoaded", () => {
            $("[data-role=table]").addEventListener("change", (e) => chooseTable(e.target.value));
            $("[data-role=languages]").addEventListener("change", (e) => {
              state.shown = Array.from(e.target.selectedOptions).map((o) => o.value);
              closeEditor();
              render();
            });
            $("[data-role=search]").addEventListener("input", () => { closeEditor(); render(); });
            $("[data-role=filter]").addEventListener("change", async (e) => {
              closeEditor();
              if (e.target.value.startsWith("reported-")) await loadReports();
              render();
            });
            loadTables().then(listen).catch((error) => status("cannot load: " + error.message, true));
          });
        })();

        """#
}
