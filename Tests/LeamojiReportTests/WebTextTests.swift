import LeamojiReport
import Testing

@Suite("Escaping for HTML, attributes, URLs and script data")
struct WebTextTests {
  @Test("markup and quotes become character references; controls are dropped")
  func html() {
    #expect(
      WebText.html("<a href='x'>\"&</a>") == "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&lt;/a&gt;")
    #expect(WebText.html("a\u{0}b\u{1B}[2Jc\u{85}d\te") == "ab[2Jcd\te")
    #expect(WebText.html("😱 scary") == "😱 scary")
  }

  @Test("a URL segment cannot be a scheme, a folder, a query or a fragment")
  func urlSegment() {
    #expect(WebText.urlSegment("javascript:alert(1)") == "javascript%3Aalert%281%29")
    #expect(WebText.urlSegment("../a b?#/é") == "..%2Fa%20b%3F%23%2F%C3%A9")
    #expect(WebText.relativeURL(["..", "posters", "a b.jpg"]) == "../posters/a%20b.jpg")
  }

  @Test("a JSON string cannot close a script element or break a line of script")
  func jsonString() {
    let text = WebText.jsonString("</script><!--\u{2028}\u{2029}\"\\\n\u{1}&")
    #expect(!text.contains("<") && !text.contains(">") && !text.contains("&"))
    #expect(!text.contains("\u{2028}") && !text.contains("\u{2029}"))
    #expect(
      text == #""\u003c/script\u003e\u003c!--\u2028\u2029\"\\\n\u0001\u0026""#)
  }

  @Test("numbers and clock times")
  func numbers() {
    #expect(WebText.number(7) == "7")
    #expect(WebText.number(7.25) == "7.25")
    #expect(WebText.number(.nan) == "0")
    #expect(WebText.clock(0) == "0:00")
    #expect(WebText.clock(75.9) == "1:15")
    #expect(WebText.clock(3725) == "1:02:05")
  }
}
