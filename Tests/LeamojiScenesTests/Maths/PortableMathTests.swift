import Foundation
import LeamojiCore
import Testing

@testable import LeamojiScenes

@Suite("PortableMath")
struct PortableMathTests {
  @Test("the scene generator's portable sin, cos and log agree with the platform's libm")
  func portableMath() {
    var x = -40.0
    while x < 40 {
      #expect(abs(PortableMath.sceneSin(x) - Foundation.sin(x)) < 1e-12)
      #expect(abs(PortableMath.sceneCos(x) - Foundation.cos(x)) < 1e-12)
      x += 0.137
    }
    for v in [1e-300, 1e-9, 0.001, 0.5, 0.999, 1, 1.5, 2, 10, 12345.678, 1e200] {
      let reference = Foundation.log(v)
      #expect(abs(PortableMath.sceneLog(v) - reference) <= 1e-12 * max(1, abs(reference)))
    }
    #expect(PortableMath.sceneLog(1) == 0)
  }
}
