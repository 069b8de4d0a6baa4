extension WebPageScript {
    /// The part of the page's script that edits a plural entry (a `.stringsdict` rule, or a catalog's plural
    /// variations as the daemon compiles them into one) as its forms, and a catalog's device variations (or a
    /// `.stringsdict` entry's `NSStringDeviceSpecificRuleType`) as each device's text or forms: one labelled textarea
    /// each, checked by the daemon as you type (`/api/check`), each changed one saved by a `set` naming `form` and
    /// `variable`, and `device`. Inside the script's function, beside the rest.
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
          // A rule that varies by device (a catalog's device variations, a .stringsdict's device entries) as each
          // device's text, or its plural forms.
          const DEVICES = "NSStringDeviceSpecificRuleType";
          const formsOf = (rule) => {
            const devices = rule && rule[DEVICES];
            if (!devices || typeof devices !== "object") return pluralForms(rule);
            const forms = [];
            for (const device of Object.keys(devices).sort()) {
              const variant = devices[device];
              if (typeof variant === "string") forms.push({ device, value: variant });
              else for (const form of pluralForms(variant)) forms.push(Object.assign({ device }, form));
            }
            return forms;
          };
          // One labelled textarea per plural form or device; Save sets each changed one (`set` with `form` and
          // `variable`, and `device` for a device's text or form).
          function openFormsEditor(td, key, language, forms) {
            const rule = ruleOf(key, language);
            const editors = forms.map((entry) => {
              const editor = document.createElement("textarea");
              editor.dataset.role = "editor";
              if (entry.device !== undefined) editor.dataset.device = entry.device;
              if (entry.form !== undefined) {
                editor.dataset.form = entry.form;
                editor.dataset.variable = entry.variable;
              }
              editor.value = entry.value;
              const name = [entry.device, entry.variable, entry.form].filter((part) => part !== undefined);
              editor.setAttribute("aria-label", name.join(": ") + " of " + key + " in " + language);
              const label = document.createElement("label");
              label.className = "form";
              label.append(name.join(" \u00b7 "), editor);
              return { entry, editor, label };
            });
            const { problem, save, cancel } = editorControls();
            // Each textarea is asked about as a `set` of its own form or device's text would be.
            const pairs = editors.map(({ entry, editor }) => {
              const verdict = { value: null, problems: [] };
              const check = asker(() => ({ key, value: editor.value, language, table: state.table, form: entry.form,
                                           variable: entry.variable, device: entry.device }), verdict,
                                  () => showProblems(problem, pairs.map((pair) => pair.verdict)));
              answerKeys(editor, check);
              return { editor, verdict, check };
            });
            td.replaceChildren(...editors.map((e) => e.label), problem, save, cancel);
            td.classList.remove("missing");
            const original = JSON.stringify(rule);
            state.editing = { td, key, language, original, editor: editors[0].editor, forms: editors, verdicts: pairs,
                              conflict: null, current: () => JSON.stringify(ruleOf(key, language)) };
            for (const { check } of pairs) check();
            editors[0].editor.focus();
          }

          async function saveForms(editing) {
            if (editing.conflict !== null) {
              status("conflict: the forms changed meanwhile; not saved", true);
              return;
            }
            const refused = refusal(editing.verdicts);
            if (refused) {
              status("not saved: " + refused, true);
              return;
            }
            editing.saving = true;
            try {
              for (const { entry, editor } of editing.forms) {
                if (editor.value === entry.value) continue;
                await api("/api/set", { method: "POST", headers: { "Content-Type": "application/json" },
                                        body: JSON.stringify({ key: editing.key, value: editor.value,
                                                               language: editing.language, table: state.table,
                                                               form: entry.form, variable: entry.variable,
                                                               device: entry.device }) });
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
