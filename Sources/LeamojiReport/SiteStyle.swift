/// `leamoji.css`, the site's one style sheet: a responsive poster grid, the film page, the
/// player overlay, and the mood colours of `Label` (happy, neutral, scary, other) in light and
/// dark mode.
public enum SiteStyle {
  /// The style sheet's text.
  public static let text = """
    :root {
      color-scheme: light dark;
      --bg: #f6f4ef; --fg: #1d1d1f; --muted: #5d5d66; --card: #ffffff; --line: #d9d6cf;
      --accent: #1f5fbf; --happy: rgb(250, 200, 40); --neutral: rgb(140, 140, 140);
      --scary: rgb(150, 20, 60); --other: rgb(60, 110, 200); --none: rgb(50, 50, 50);
    }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #15161a; --fg: #ececf0; --muted: #a6a6b0; --card: #202228; --line: #34363d;
        --accent: #8ab4ff; }
    }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
      background: var(--bg); color: var(--fg); }
    header.top { padding: 1rem clamp(1rem, 4vw, 2.5rem) 0.25rem; }
    header.top h1 { margin: 0; font-size: 1.8rem; }
    .sub { margin: 0.2rem 0 0; color: var(--muted); }
    main { padding: 0.5rem clamp(1rem, 4vw, 2.5rem) 2rem; max-width: 80rem; }
    footer { padding: 1rem clamp(1rem, 4vw, 2.5rem) 2rem; color: var(--muted); font-size: 0.85rem; }
    a { color: var(--accent); }
    a:focus-visible, input:focus-visible, select:focus-visible, video:focus-visible,
    .strip:focus-visible {
      outline: 3px solid var(--accent); outline-offset: 2px; }
    .controls { display: flex; flex-wrap: wrap; gap: 0.75rem 1.5rem; align-items: center;
      margin: 0.5rem 0 1rem; }
    .controls input, .controls select { font: inherit; padding: 0.35rem 0.5rem; margin-left: 0.3rem;
      border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); }
    #shown { color: var(--muted); font-size: 0.9rem; }
    .grid { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem;
      grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); }
    .grid > li { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
      overflow: hidden; display: flex; flex-direction: column; }
    .grid > li[hidden] { display: none; }
    .card a { display: flex; flex-direction: column; text-decoration: none; color: inherit; flex: 1; }
    .card a:hover .name { text-decoration: underline; }
    .thumb { display: block; position: relative; aspect-ratio: 2 / 3; background: var(--none);
      overflow: hidden; }
    .lvl { position: absolute; top: 0.4rem; left: 0.4rem; padding: 0.05rem 0.4rem;
      border-radius: 4px; font-size: 0.8rem; font-weight: 700; color: #fff;
      background: rgba(20, 20, 20, 0.8); border: 2px solid var(--neutral); }
    .lvl.lv1, .lvl.lv2 { border-color: var(--happy); }
    .lvl.lv3, .lvl.lv4, .lvl.lv5 { border-color: var(--scary); background: var(--scary); }
    .lvl.old { border-style: dashed; }
    .headsup { margin-top: 1rem; padding: 0.6rem 0.9rem; max-width: 60rem; background: var(--card);
      border: 1px solid var(--line); border-left: 6px solid var(--neutral); border-radius: 8px; }
    .headsup h2 { margin: 0 0 0.3rem; font-size: 1.1rem; }
    .headsup .level { margin: 0; font-weight: 600; }
    .headsup ul { margin: 0.4rem 0 0; padding-left: 1.2rem; }
    .headsup .stale { margin: 0.4rem 0 0; font-weight: 600; }
    .headsup.lv1, .headsup.lv2 { border-left-color: var(--happy); }
    .headsup.lv3, .headsup.lv4, .headsup.lv5 { border-left-color: var(--scary); }
    .thumb img { width: 100%; height: 100%; object-fit: cover; display: block; }
    .noposter { display: flex; height: 100%; align-items: center; justify-content: center;
      font-size: 3rem; }
    .name { display: block; padding: 0.5rem 0.6rem 0.3rem; font-weight: 600; line-height: 1.25;
      overflow-wrap: anywhere; }
    .bar { display: flex; height: 8px; margin: 0 0.6rem; border-radius: 4px; overflow: hidden;
      background: var(--none); }
    .meta { display: block; padding: 0.35rem 0.6rem 0.6rem; color: var(--muted); font-size: 0.85rem; }
    .mh { background: var(--happy); fill: var(--happy); }
    .mn { background: var(--neutral); fill: var(--neutral); }
    .ms { background: var(--scary); fill: var(--scary); }
    .mo { background: var(--other); fill: var(--other); }
    .mx { background: var(--none); fill: var(--none); }
    .empty { color: var(--muted); }
    .e, .badge, .emoji, .nothumb, .noposter, .poster.none {
      font-family: "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif; }
    .back { text-decoration: none; font-weight: 600; }
    .intro { display: flex; gap: 1.25rem; align-items: flex-start; flex-wrap: wrap; margin-top: 0.5rem; }
    .intro h1 { margin: 0 0 0.4rem; font-size: 1.9rem; overflow-wrap: anywhere; }
    .poster { width: 9rem; border-radius: 8px; flex: none; background: var(--none); }
    .poster.none { height: 13.5rem; display: flex; align-items: center; justify-content: center;
      font-size: 3rem; }
    .about { flex: 1 1 16rem; min-width: 0; }
    .desc { margin: 0 0 0.5rem; white-space: pre-line; overflow-wrap: anywhere; }
    .facts { margin: 0; color: var(--muted); }
    .player { margin-top: 1.25rem; }
    .stage { position: relative; background: #000; border-radius: 10px; overflow: hidden;
      max-width: 60rem; }
    .stage video { display: block; width: 100%; max-height: 70vh; background: #000; }
    .stage video.failed { min-height: 8rem; }
    .novideo { aspect-ratio: 16 / 9; max-height: 50vh; display: flex; align-items: center;
      justify-content: center; color: #bbb; }
    .overlay { position: absolute; inset: 0; pointer-events: none; }
    .badge { position: absolute; top: 0.6rem; right: 0.6rem; min-width: 2.8rem; padding: 0.15rem 0.4rem;
      font-size: 2rem; line-height: 1.2; text-align: center; border-radius: 10px;
      background: rgba(20, 20, 20, 0.75); border: 3px solid transparent; }
    .badge.none, .badge:empty { display: none; }
    .badge.mh { border-color: var(--happy); background: rgba(20, 20, 20, 0.75); }
    .badge.mn { border-color: var(--neutral); background: rgba(20, 20, 20, 0.75); }
    .badge.ms { border-color: var(--scary); background: rgba(20, 20, 20, 0.75); }
    .badge.mo { border-color: var(--other); background: rgba(20, 20, 20, 0.75); }
    .heads-up { position: absolute; left: 0.6rem; top: 0.6rem; max-width: calc(100% - 5.5rem);
      padding: 0.35rem 0.9rem; border-radius: 999px; font-size: 1.15rem; font-weight: 600;
      color: #fff; background: rgba(20, 20, 20, 0.85); white-space: nowrap;
      overflow: hidden; text-overflow: ellipsis; border: 2px solid var(--other); }
    .heads-up.ms { border-color: var(--scary); background: rgba(120, 10, 45, 0.92); }
    .heads-up.mh { border-color: var(--happy); }
    .heads-up.mn { border-color: var(--neutral); }
    .heads-up[hidden] { display: none; }
    .note { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--other);
      background: var(--card); }
    .note[hidden] { display: none; }
    .clock { margin: 0.3rem 0 0; color: var(--muted); font-variant-numeric: tabular-nums; }
    h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
    .strip { display: block; width: 100%; max-width: 60rem; height: 2.2rem; border-radius: 6px;
      cursor: pointer; background: var(--none); }
    .playhead { fill: var(--fg); }
    .scenes { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.6rem;
      grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
    .scene a { display: grid; grid-template-columns: auto 1fr auto; grid-template-rows: auto auto auto;
      column-gap: 0.6rem; align-items: center; padding: 0.5rem; text-decoration: none; color: inherit;
      background: var(--card); border: 1px solid var(--line); border-left: 6px solid var(--none);
      border-radius: 8px; }
    .scene.mh a { border-left-color: var(--happy); }
    .scene.mn a { border-left-color: var(--neutral); }
    .scene.ms a { border-left-color: var(--scary); }
    .scene.mo a { border-left-color: var(--other); }
    .scene[aria-current] a { outline: 3px solid var(--accent); }
    .scene img, .nothumb { grid-row: 1 / 4; width: 6.5rem; height: auto; border-radius: 4px;
      background: var(--none); }
    .nothumb { display: flex; align-items: center; justify-content: center; aspect-ratio: 16 / 9;
      font-size: 1.6rem; }
    .when { font-variant-numeric: tabular-nums; font-weight: 600; }
    .scene .emoji { font-size: 1.4rem; grid-row: 1 / 3; grid-column: 3; }
    .label { overflow-wrap: anywhere; }
    .conf { color: var(--muted); font-size: 0.85rem; }
    .tag { font-size: 0.75rem; font-weight: 600; padding: 0 0.4rem; border-radius: 4px;
      background: var(--accent); color: var(--bg); justify-self: start; }
    @media (max-width: 30rem) {
      .poster { width: 6rem; }
      .intro h1 { font-size: 1.5rem; }
      .badge { font-size: 1.5rem; }
      .heads-up { font-size: 0.95rem; }
    }

    """

  /// `leamoji.svg`, the site's icon: the three mood colours in a rounded square.
  public static let icon = """
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48">\
    <rect width="48" height="48" rx="10" fill="rgb(50,50,50)"/>\
    <rect x="6" y="20" width="12" height="8" fill="rgb(250,200,40)"/>\
    <rect x="18" y="20" width="12" height="8" fill="rgb(140,140,140)"/>\
    <rect x="30" y="20" width="12" height="8" fill="rgb(150,20,60)"/></svg>

    """
}
