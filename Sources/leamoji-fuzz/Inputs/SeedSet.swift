import Foundation

/// One input to mutate: its bytes and where its structure fields are.
struct Seed {
  let name: String
  let bytes: [UInt8]
  let map: FieldMap
}

/// The seeds of a run, made once in the work folder: the sample videos cut to their first
/// seconds, one small PNG that leamoji itself takes from each clip, and the model file.
struct SeedSet {
  var videos: [Seed] = []
  var images: [Seed] = []
  var model: Seed
  /// The unmutated model, given to the video and image commands.
  let modelPath: String
  /// An unmutated image, classified with each mutated model.
  var imagePath = ""

  func seeds(for target: Target) -> [Seed] {
    switch target {
    case .video: videos
    case .image: images
    case .model: [model]
    }
  }

  /// Reads the seeds under `root` and writes the clips and frames into `folder`.
  init(root: String, clipSeconds: Double, leamoji: String, folder: String) throws(FuzzError) {
    modelPath = root + "/Models/leamoji.safetensors"
    model = Seed(
      name: "leamoji", bytes: try Self.read(modelPath),
      map: FieldMap(fields: Array(0..<8), numbers: [0, 4]))
    let videoFolder = root + "/SampleVideos"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: videoFolder)) ?? []).filter {
      $0.hasSuffix(".mp4")
    }.sorted()
    guard !names.isEmpty else { throw FuzzError("\(videoFolder): no .mp4 sample videos") }
    for name in names {
      let path = videoFolder + "/" + name
      let stem = String(name.dropLast(4))
      var bytes = try Self.read(path)
      if clipSeconds > 0 {
        do { bytes = try MP4Clipper(seconds: clipSeconds).clip(bytes) } catch {
          throw FuzzError("\(path): \(error)")
        }
      }
      videos.append(Seed(name: stem, bytes: bytes, map: FieldMap.mp4(bytes)))
      let clipPath = folder + "/\(stem).mp4"
      try Self.write(bytes, to: clipPath)
      let png = try Self.frame(of: clipPath, named: stem, leamoji: leamoji, folder: folder)
      images.append(Seed(name: stem, bytes: png, map: FieldMap.png(png)))
      if imagePath.isEmpty { imagePath = folder + "/\(stem).png" }
    }
  }

  /// A 64x36 PNG of the clip's frame at 1 s (or 0 s), written by `leamoji frames`.
  private static func frame(of clip: String, named stem: String, leamoji: String, folder: String)
    throws(FuzzError) -> [UInt8]
  {
    let frames = folder + "/frames-\(stem)"
    let arguments = ["frames", clip, "--out", frames, "--size", "64x36", "--interval", "1"]
    let result = try ChildProcess(
      executable: leamoji, arguments: arguments, folder: folder, timeout: 120
    ).run()
    guard result.status == 0 else {
      throw FuzzError(
        "leamoji frames could not sample the seed clip \(clip): \(result.stderr.split(separator: "\n").first ?? "no message")"
      )
    }
    let candidates = [frames + "/000001.png", frames + "/000000.png"]
    guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
      throw FuzzError("leamoji frames wrote no frame for \(clip)")
    }
    let bytes = try read(path)
    try write(bytes, to: folder + "/\(stem).png")
    return bytes
  }

  static func read(_ path: String) throws(FuzzError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FuzzError("\(path): cannot read", status: 66)
    }
    return [UInt8](data)
  }

  static func write(_ bytes: [UInt8], to path: String) throws(FuzzError) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      throw FuzzError("\(path): cannot write", status: 73)
    }
  }
}
