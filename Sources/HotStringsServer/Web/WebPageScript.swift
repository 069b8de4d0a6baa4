/// The page's script (served as /app.js): loads the tables through the JSON API, renders the rows that are
/// shown (at most `LIMIT`, so a 20,000-key table stays responsive), edits in place, and follows the daemon's
/// reloads over `/api/events`. The automation contract (docs/WEB.md) is in the `data-` attributes.
enum WebPageScript {
    static let text = #"""
        "use strict";
        (() => {
          const LIMIT = 200;
          const $ = (selector) => document.querySelector(selector);
          const state = { tables: [], table: null, development: "en", languages: [], shown: [],
                          values: {}, editing: null };
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

          // Format specifiers as lint compares them: %%, then %[n$][flags][width][.precision][length]conversion.
          const specifiers = (text) => {
            const found = [];
            const pattern = /%(?:%|(\d+\$)?[-+ #0']*(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|q|L|z|t|j)?([@dDiuUxXoOfFeEgGcCsSpaA]))/g;
            let match;
            while ((match = pattern.exec(text)) !== null) {
              if (match[0] !== "%%") found.push((match[1] || "") + (match[4] || "") + match[5]);
            }
            return found.sort().join(" ");
          };
          const problemFor = (key, language, value) => {
            if (language === state.development) return "";
            const source = state.values[state.development] && state.values[state.development][key];
            if (source === undefined) return "";
            const want = specifiers(source);
            const have = specifiers(value);
            return want === have ? "" : "format specifiers differ from " + state.development +
              ": expected [" + want + "], found [" + have + "]";
          };

          async function loadTables() {
            const answer = await api("/api/tables");
            state.tables = answer.tables;
            state.development = answer.developmentLanguage || "en";
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
            state.languages.sort((a, b) => (a === state.development ? -1 : b === state.development ? 1 :
                                            a.localeCompare(b)));
            const picker = $("[data-role=languages]");
            picker.replaceChildren(...state.languages.map((l) => {
              const option = new Option(l, l, true, true);
              return option;
            }));
            state.shown = state.languages.slice();
            state.values = {};
            await Promise.all(state.languages.map(loadLanguage));
            render();
            status("");
          }

          async function loadLanguage(language) {
            const query = "/api/table?table=" + encodeURIComponent(state.table) +
              "&language=" + encodeURIComponent(language);
            try {
              state.values[language] = (await api(query)).entries;
            } catch (error) {
              state.values[language] = {};
            }
          }

          function keys() {
            const all = new Set();
            for (const language of state.languages) {
              for (const key of Object.keys(state.values[language] || {})) all.add(key);
            }
            return Array.from(all).sort();
          }

          function matching() {
            const search = $("[data-role=search]").value.toLowerCase();
            const onlyMissing = $("[data-role=filter]").value === "missing";
            return keys().filter((key) => {
              if (onlyMissing && !state.shown.some((l) => (state.values[l] || {})[key] === undefined)) return false;
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
              return th;
            }));
            $("[data-role=head]").replaceChildren(head);
            const found = matching();
            const rows = found.slice(0, LIMIT).map((key) => {
              const row = document.createElement("tr");
              row.dataset.key = key;
              row.dataset.table = state.table;
              const keyCell = document.createElement("th");
              keyCell.scope = "row";
              keyCell.textContent = key;
              row.append(keyCell);
              for (const language of state.shown) row.append(cell(key, language));
              return row;
            });
            $("[data-role=rows]").replaceChildren(...rows);
            if (found.length > LIMIT) status("showing " + LIMIT + " of " + found.length + " keys: search to narrow");
          }

          function cell(key, language) {
            const td = document.createElement("td");
            td.dataset.language = language;
            td.tabIndex = 0;
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
            closeEditor();
            const original = (state.values[language] || {})[key];
            const editor = document.createElement("textarea");
            editor.dataset.role = "editor";
            editor.setAttribute("aria-label", "value of " + key + " in " + language);
            editor.value = original === undefined ? "" : original;
            const problem = document.createElement("div");
            problem.dataset.role = "problem";
            const save = document.createElement("button");
            save.type = "button";
            save.dataset.action = "save";
            save.textContent = "Save";
            const cancel = document.createElement("button");
            cancel.type = "button";
            cancel.textContent = "Cancel";
            const check = () => {
              const text = problemFor(key, language, editor.value);
              problem.textContent = text;
              problem.hidden = !text;
            };
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
            save.addEventListener("click", saveEditor);
            cancel.addEventListener("click", () => { closeEditor(); status("cancelled"); });
            td.replaceChildren(editor, problem, save, cancel);
            td.classList.remove("missing");
            state.editing = { td, key, language, original, editor, conflict: null };
            check();
            editor.focus();
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
            const value = editing.editor.value;
            if (editing.conflict !== null) {
              status("conflict: the value changed meanwhile to \u201c" + editing.conflict + "\u201d; yours is \u201c" +
                     value + "\u201d. Not saved.", true);
              return;
            }
            const problem = problemFor(editing.key, editing.language, value);
            if (problem) {
              status("not saved: " + problem, true);
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
            await Promise.all(Array.from(touched).map(loadLanguage));
            if (editing && state.editing === editing && touched.has(editing.language)) {
              const now = (state.values[editing.language] || {})[editing.key];
              if (now !== editing.original && now !== editing.editor.value) {
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
            $("[data-role=filter]").addEventListener("change", () => { closeEditor(); render(); });
            loadTables().then(listen).catch((error) => status("cannot load: " + error.message, true));
          });
        })();

        """#
}
