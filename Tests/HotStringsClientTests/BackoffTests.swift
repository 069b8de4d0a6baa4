import Testing
@testable import HotStringsClient

struct BackoffTests {
    static let backoff = Backoff(initial: .milliseconds(50), maximum: .seconds(2))

    @Test(arguments: [
        (0, 0.0, Duration.milliseconds(50)), (1, 0.0, .milliseconds(100)), (2, 0.0, .milliseconds(200)),
        (5, 0.0, .milliseconds(1600)), (6, 0.0, .seconds(2)), (1000, 0.0, .seconds(2)),
        (0, 1.0, .microseconds(37_500)), (6, 0.5, .milliseconds(1750)), (-3, 0.0, .milliseconds(50)),
    ])
    func delaysDoubleUpToTheMaximumLessTheJitter(failures: Int, random: Double, expected: Duration) {
        #expect(Self.backoff.delay(afterFailures: failures, random: random) == expected)
    }
}
