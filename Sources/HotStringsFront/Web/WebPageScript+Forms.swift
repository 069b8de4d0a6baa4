extension WebPageScript {
    /// The part of the page's script that edits a plural entry (a `.stringsdict` rule, or a catalog's plural
    /// variations as the daemon compiles them into one) as its forms: one labelled textarea per form, each changed
    /// form saved by a `set` naming `form` and `variable`. Inside the script's function, beside the rest.
    static let forms = #"""
          // A plural rule (a .stringsdict entry, or a catalog's variations as the daemon compiles them) as its forms.
          const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];
          const ruleOf = (key, language) => (state.rules[language] || {})[key];
          const pluralForms = (rule) => {
            const forms = [];
            for (const [variable, spec] of Object.entries(rule || {})) {
              const isPlural = spec && typeof spec === "object" &&
                spec.NSStringFormatSpecTypeKey === "NSStringPluralRuleType";
              if (!isPlural) continue;
              for (const form of CATEGORIES) {
                if (typeof spec[form] === "string") forms.push({ variable, form, value: spec[form] });
              }
            }
            return forms;
          };
          // A rule's specifiers as lint judges them: the kinds of its variables' value types and of every
          // conversion in its format and forms (a form may leave the number out: "one" = "a file").
          const kind = (c) => ("diuoxXcC".includes(c) ? "d" : "fFeEgGaA".includes(c) ? "f" :
                                "sS".includes(c) ? "s" : "@");
          const ruleSignature = (rule) => {
            const kinds = new Set();
            const texts = [rule.NSStringLocalizedFormatKey || ""];
            for (const spec of Object.values(rule)) {
              if (!spec || typeof spec !== "object") continue;
              const type = spec.NSStringFormatValueTypeKey;
              if (type) kinds.add(kind(type[type.length - 1]));
              for (const form of CATEGORIES) if (typeof spec[form] === "string") texts.push(spec[form]);
            }
            const pattern = specifierPattern();
            for (const text of texts) {
              const plain = text.replace(/%(\d+\$)?#@[^@]*@/g, "");
              let match;
              while ((match = pattern.exec(plain)) !== null) if (match[5]) kinds.add(kind(match[5]));
            }
            return Array.from(kinds).sort().map((k) => "%" + k).join(" ");
          };

          // One labelled textarea per plural form; Save sets each changed form (`set` with `form` and `variable`).
          function openFormsEditor(td, key, language, forms) {
            const rule = ruleOf(key, language);
            const editors = forms.map((entry) => {
              const editor = document.createElement("textarea");
              editor.dataset.role = "editor";
              editor.dataset.form = entry.form;
              editor.dataset.variable = entry.variable;
              editor.value = entry.value;
              editor.setAttribute("aria-label", entry.variable + ": " + entry.form + " of " + key + " in " + language);
              const label = document.createElement("label");
              label.className = "form";
              label.append(entry.variable + " \u00b7 " + entry.form, editor);
              return { entry, editor, label };
            });
            const problem = document.createElement("div");
            problem.dataset.role = "problem";
            const save = document.createElement("button");
            save.type = "button";
            save.dataset.action = "save";
            save.textContent = "Save";
            const cancel = document.createElement("button");
            cancel.type = "button";
            cancel.textContent = "Cancel";
            const edited = () => {
              const copy = JSON.parse(JSON.stringify(rule));
              for (const { entry, editor } of editors) copy[entry.variable][entry.form] = editor.value;
              return copy;
            };
            const check = () => {
              const source = ruleOf(key, state.development);
              const want = source && language !== state.development ? ruleSignature(source) : null;
              const have = ruleSignature(edited());
              const text = want === null || want === have ? "" : "format specifiers differ from " +
                state.development + ": expected [" + want + "], found [" + have + "]";
              problem.textContent = text;
              problem.hidden = !text;
              return text;
            };
            for (const { editor } of editors) {
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
            save.addEventListener("click", saveEditor);
            cancel.addEventListener("click", () => { closeEditor(); status("cancelled"); });
            td.replaceChildren(...editors.map((e) => e.label), problem, save, cancel);
            td.classList.remove("missing");
            const original = JSON.stringify(rule);
            state.editing = { td, key, language, original, editor: editors[0].editor, forms: editors, check,
                              conflict: null, current: () => JSON.stringify(ruleOf(key, language)) };
            check();
            editors[0].editor.focus();
          }

          async function saveForms(editing) {
            if (editing.conflict !== null) {
              status("conflict: the forms changed meanwhile; not saved", true);
              return;
            }
            const problem = editing.check();
            if (problem) {
              status("not saved: " + problem, true);
              return;
            }
            editing.saving = true;
            try {
              for (const { entry, editor } of editing.forms) {
                if (editor.value === entry.value) continue;
                await api("/api/set", { method: "POST", headers: { "Content-Type": "application/json" },
                                        body: JSON.stringify({ key: editing.key, value: editor.value,
                                                               language: editing.language, table: state.table,
                                                               form: entry.form, variable: entry.variable }) });
              }
              if (state.editing === editing) closeEditor();
              status("saved " + editing.key + " in " + editing.language);
            } catch (error) {
              editing.saving = false;
              status("not saved: " + error.message, true);
            }
          }

        """#
}
