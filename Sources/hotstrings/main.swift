import Foundation
import HotStringsCLI

var standardOutput = FileHandleOutputStream.standardOutput
var standardError = FileHandleOutputStream.standardError
exit(CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), stdout: &standardOutput, stderr: &standardError))
