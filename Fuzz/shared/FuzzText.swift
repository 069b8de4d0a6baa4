/// Text for fuzz findings, shared by the fuzz targets (each run script copies this folder into its build).
enum FuzzText {
    /// Bytes as a Swift-like string literal: printable ASCII as is, everything else as \xNN.
    static func escaped(_ bytes: some Sequence<UInt8>) -> String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case 0x0A: text += "\\n"
            case 0x09: text += "\\t"
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return text + "\""
    }
}
