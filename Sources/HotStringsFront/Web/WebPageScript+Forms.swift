extension WebPageScript {
    /// The part of the page's script that edits a plural entry (a `.stringsdict` rule, or a catalog's plural
    /// variations as the daemon compiles them into one) as its forms, and a catalog's device variations (or a
    /// `.stringsdict` entry's `NSStringDeviceSpecificRuleType`) as each device's text or forms: one labelled textarea each, each changed one saved by a `set` naming `form` and
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
          // A value (text or rule) as shown on a device: its device's, else other's; the same on every device when
          // it does not vary by device.
          const shownOn = (value, device) => {
            const devices = value && typeof value === "object" && value[DEVICES];
            if (!devices) return value;
            return devices[device || "other"] !== undefined ? devices[device || "other"] : devices.other;
          };
          // The problem of `have` against the development language's `want`, as `set` judges it: two texts by their
          // specifiers, else both as rules.
          const mismatch = (want, have) => {
            if (want === undefined || have === undefined) return "";
            const asRule = (value) => (typeof value === "string" ? { NSStringLocalizedFormatKey: value } : value);
            const bothTexts = typeof want === "string" && typeof have === "string";
            const expected = bothTexts ? specifiers(want) : ruleSignature(asRule(want));
            const found = bothTexts ? specifiers(have) : ruleSignature(asRule(have));
            return expected === found ? "" : "expected [" + expected + "], found [" + found + "]";
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
            const edited = () => {
              const copy = JSON.parse(JSON.stringify(rule));
              for (const { entry, editor } of editors) {
                const holder = entry.device === undefined ? copy : copy[DEVICES];
                if (entry.form === undefined) holder[entry.device] = editor.value;
                else (entry.device === undefined ? holder : holder[entry.device])[entry.variable][entry.form] =
                  editor.value;
              }
              return copy;
            };
            // Each device against the development language's text on that device (a rule: its whole signature).
            const check = () => {
              const written = edited();
              const source = ruleOf(key, state.development) || (state.values[state.development] || {})[key];
              const devices = written[DEVICES] ? Object.keys(written[DEVICES]).sort() : [undefined];
              let text = "";
              for (const device of language === state.development ? [] : devices) {
                const found = mismatch(shownOn(source, device), shownOn(written, device));
                if (!found) continue;
                text = "format specifiers" + (device === undefined ? "" : " on " + device) + " differ from " +
                  state.development + ": " + found;
                break;
              }
              problem.textContent = text;
              problem.hidden = !text;
              return text;
            };
            for (const { editor } of editors) answerKeys(editor, check);
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
