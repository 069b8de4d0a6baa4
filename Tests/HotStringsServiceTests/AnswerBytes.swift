/// The lines `AnswerBytesTests` pins: recorded from the untyped answers at a165d26, before answers were typed (issue
/// 38), and never to change; see `AnswerBytesTests` for what they are. Each is one line as sent, so longer than the
/// 120 columns code keeps to.
enum AnswerBytes {
    /// `AnswerBytesTests.inputs`, in order, over a bundle of plain files.
    static let golden: [String] = [
        ##"answer {"id":1,"ok":true,"server":"hotstrings 0.1.0","protocol":1,"epoch":6336735572390271,"seq":2,"root":"$ROOT","developmentLanguage":"en"}"##,
        ##"answer {"id":"two","ok":true,"languages":[{"language":"ar-XB","tables":{"Localizable":4},"pseudo":true},{"language":"de","tables":{"Localizable":3}},{"language":"en","tables":{"Localizable":4}},{"language":"en-XA","tables":{"Localizable":4},"pseudo":true}],"selected":null,"developmentLanguage":"en"}"##,
        ##"answer {"id":3,"ok":true,"value":"Hallo!","language":"de","found":true}"##,
        ##"answer {"id":4,"ok":true,"value":"%d files","language":"en","found":true,"rule":{"NSStringLocalizedFormatKey":"%#@n@","n":{"NSStringFormatSpecTypeKey":"NSStringPluralRuleType","NSStringFormatValueTypeKey":"d","one":"%d file","other":"%d files"}}}"##,
        ##"answer {"id":null,"ok":true,"value":"absent","language":null,"found":false}"##,
        ##"answer {"id":6,"ok":true,"entries":{"greeting":"Hallo!","farewell":"Tschüss","count":"%@ Dinge"},"language":"de","seq":2}"##,
        ##"answer {"id":7,"ok":true,"entries":{"greeting":"Hello!","farewell":"Bye","count":"%d items","files":"%d files"},"language":"en","seq":2,"rules":{"files":{"NSStringLocalizedFormatKey":"%#@n@","n":{"NSStringFormatSpecTypeKey":"NSStringPluralRuleType","NSStringFormatValueTypeKey":"d","one":"%d file","other":"%d files"}}}}"##,
        ##"answer {"id":"again","ok":true,"entries":{"greeting":"Hello!","farewell":"Bye","count":"%d items","files":"%d files"},"language":"en","seq":2,"rules":{"files":{"NSStringLocalizedFormatKey":"%#@n@","n":{"NSStringFormatSpecTypeKey":"NSStringPluralRuleType","NSStringFormatValueTypeKey":"d","one":"%d file","other":"%d files"}}}}"##,
        ##"answer {"id":9,"ok":false,"error":{"code":"not_found","message":"no table 'Localizable' in language 'it'"}}"##,
        ##"answer {"id":10,"ok":true,"epoch":6336735572390271,"seq":2}"##,
        ##"event {"event":"snapshot","epoch":6336735572390271,"seq":2,"tables":[{"language":"de","table":"Localizable","file":"de.lproj/Localizable.strings","entries":{"greeting":"Hallo!","farewell":"Tschüss","count":"%@ Dinge"}}]}"##,
        ##"answer {"id":11,"ok":false,"error":{"code":"unsupported_language","message":"unsupported language 'fr'","available":["ar-XB","de","en","en-XA"]}}"##,
        ##"event {"event":"language","epoch":6336735572390271,"seq":3,"language":"de","previous":null}"##,
        ##"answer {"id":12,"ok":true,"selected":"de"}"##,
        ##"answer {"id":"selected","ok":true,"languages":[{"language":"ar-XB","tables":{"Localizable":4},"pseudo":true},{"language":"de","tables":{"Localizable":3}},{"language":"en","tables":{"Localizable":4}},{"language":"en-XA","tables":{"Localizable":4},"pseudo":true}],"selected":"de","developmentLanguage":"en"}"##,
        ##"answer {"id":13,"ok":false,"error":{"code":"unsupported_language","message":"unsupported language 'xx'","available":["ar-XB","de","en","en-XA"]}}"##,
        ##"event {"event":"language","epoch":6336735572390271,"seq":4,"language":null,"previous":"de"}"##,
        ##"answer {"id":14,"ok":true,"selected":null}"##,
        ##"answer {"id":15,"ok":true}"##,
        ##"answer {"id":16,"ok":true,"entries":[{"kind":"fallback","table":"Localizable","key":"count","language":"fr","servedBy":"en","count":7,"firstSeen":"2025-12-03T22:13:21.000Z","lastSeen":"2025-12-03T22:13:22.000Z"},{"kind":"missing","table":"Localizable","key":"title","language":"de-CH","count":3,"firstSeen":"2025-12-03T22:13:20.000Z","lastSeen":"2025-12-03T22:14:25.123Z"}],"dropped":0,"droppedByClients":2}"##,
        ##"answer {"id":17,"ok":true,"entries":[{"kind":"fallback","table":"Localizable","key":"count","language":"fr","servedBy":"en","count":7,"firstSeen":"2025-12-03T22:13:21.000Z","lastSeen":"2025-12-03T22:13:22.000Z"}],"dropped":0,"droppedByClients":2}"##,
        ##"answer {"id":18,"ok":true,"root":"$ROOT","rootPresent":true,"watchedDirectories":4,"files":4,"tables":4,"subscribers":1,"connections":2,"lastErrors":[],"uptime":0,"epoch":6336735572390271,"seq":4,"release":null,"releaseInfo":null,"readOnly":null,"pull":null,"missing":{"missing":1,"fallback":1,"dropped":0,"droppedByClients":2},"web":null}"##,
        ##"answer {"id":19,"ok":true,"file":"de.lproj/Localizable.strings","problems":[{"severity":"warning","message":"'greeting': '%@' takes argument 1, which en does not give (en takes none; write %% for a percent sign)"}]}"##,
        ##"answer {"id":20,"ok":true,"file":"de.lproj/Localizable.strings","problems":[]}"##,
        ##"answer {"id":"check-error","ok":true,"file":"de.lproj/Localizable.strings","problems":[{"severity":"error","message":"'count': '%@' takes argument 1 as an object, where en's '%d' takes an integer"}]}"##,
        ##"answer {"id":"set-error","ok":false,"error":{"code":"bad_request","message":"'count': '%@' takes argument 1 as an object, where en's '%d' takes an integer (--force writes it anyway)"}}"##,
        ##"answer {"id":21,"ok":true,"file":"de.lproj/Localizable.strings"}"##,
        ##"answer {"id":22,"ok":true,"file":"de.lproj/Localizable.strings"}"##,
        ##"answer {"id":23,"ok":true,"file":"de.lproj/Localizable.strings"}"##,
        ##"answer {"id":24,"ok":true,"file":"de.lproj/Localizable.strings"}"##,
        ##"answer {"id":25,"ok":false,"error":{"code":"not_found","message":"no entry 'farewell' in table 'Localizable' of 'de'"}}"##,
        ##"answer {"id":26,"ok":false,"error":{"code":"unsupported_language","message":"the bundle has no language 'ko' (give --create-language to add it)","available":["de","en","fr"]}}"##,
        ##"answer {"id":27,"ok":true,"states":{"Buy":{"de":"needs_review"},"Sell \"now\"":{"fr":"new"}}}"##,
        ##"answer {"id":28,"ok":true,"states":{}}"##,
        ##"answer {"id":29,"ok":true,"files":[{"diagnostics":[{"message":"language 'de': 1 needs review (needs_review)","severity":"warning"},{"message":"language 'fr': 1 new (new)","severity":"warning"}],"keys":0,"path":"Shop.xcstrings"},{"diagnostics":[{"key":"farewell","message":"key 'farewell' is missing (present in en.lproj/Localizable.strings)","severity":"warning"},{"column":1,"key":"new","line":4,"message":"key 'new' is not in the development language (en)","severity":"warning"},{"column":1,"key":"greeting","line":1,"message":"'greeting': '%@' takes argument 1, which en does not give (en takes none; write %% for a percent sign)","severity":"warning"}],"encoding":"UTF-8","keys":3,"language":"de","path":"de.lproj/Localizable.strings","table":"Localizable"},{"diagnostics":[],"encoding":"UTF-8","keys":3,"language":"en","path":"en.lproj/Localizable.strings","table":"Localizable"},{"diagnostics":[],"keys":0,"language":"en","path":"en.lproj/Localizable.stringsdict","table":"Localizable"}],"summary":{"errors":0,"files":4,"keys":9,"warnings":5}}"##,
        ##"answer {"id":30,"ok":true}"##,
        ##"answer {"id":31,"ok":false,"error":{"code":"unknown_op","message":"unknown op 'frobnicate'"}}"##,
        ##"answer {"id":32,"ok":false,"error":{"code":"bad_request","message":"missing field 'key'"}}"##,
        ##"answer {"id":null,"ok":false,"error":{"code":"bad_request","message":"invalid JSON: invalid literal at byte 0"}}"##,
        ##"answer {"id":"s","ok":true,"entries":{"greeting":"Hello!","farewell":"Bye","count":"%d items","files":"%d files"},"language":"en","seq":4,"rules":{"files":{"NSStringLocalizedFormatKey":"%#@n@","n":{"NSStringFormatSpecTypeKey":"NSStringPluralRuleType","NSStringFormatValueTypeKey":"d","one":"%d file","other":"%d files"}}}}"##,
    ]

    /// `status` of a bundle fed by releases, pulling (and failing, then pulling again).
    static let goldenPulled: [String] = [
        ##"answer {"id":1,"ok":true,"root":"$ROOT","rootPresent":true,"watchedDirectories":4,"files":4,"tables":4,"subscribers":0,"connections":2,"lastErrors":[{"file":"https://cdn.example.com/tr/manifest.json","line":null,"column":null,"message":"release not installed"}],"uptime":0,"epoch":6336735572390271,"seq":3,"release":"20261203T140411Z-bcb152c3e54a","releaseInfo":{"sequence":42,"signer":"RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3","expires":"2026-12-31T00:00:00Z"},"readOnly":"the bundle is managed by pull: its files are a release's, replaced by the next one (edit the origin's source and publish a release instead)","pull":{"url":"https://***@cdn.example.com/tr/manifest.json","interval":30.5,"state":"waiting","lastPull":"2025-12-03T22:26:02.114Z","result":"failed","error":{"file":"https://cdn.example.com/tr/manifest.json","line":null,"column":null,"message":"release not installed: HTTP status 503"},"failures":2,"lastSuccess":"2025-12-03T22:24:14.833Z","nextPull":"2025-12-03T22:27:51.760Z"},"missing":{"missing":0,"fallback":0,"dropped":0,"droppedByClients":0},"web":{"url":"http://127.0.0.1:8080/?token=t0k"}}"##,
        ##"answer {"id":2,"ok":true,"root":"$ROOT","rootPresent":true,"watchedDirectories":4,"files":4,"tables":4,"subscribers":0,"connections":2,"lastErrors":[],"uptime":0,"epoch":6336735572390271,"seq":2,"release":"20261203T140411Z-bcb152c3e54a","releaseInfo":{"sequence":42,"signer":"RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3","expires":"2026-12-31T00:00:00Z"},"readOnly":"the bundle is managed by pull: its files are a release's, replaced by the next one (edit the origin's source and publish a release instead)","pull":{"url":"https://***@cdn.example.com/tr/manifest.json","interval":30.5,"state":"pulling","lastPull":"2025-12-03T22:26:02.114Z","result":"installed","error":null,"failures":2,"lastSuccess":"2025-12-03T22:24:14.833Z","nextPull":null},"missing":{"missing":0,"fallback":0,"dropped":0,"droppedByClients":0},"web":null}"##,
    ]
}
