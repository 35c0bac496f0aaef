//! The page's files, embedded at build time from `web/` (build.rs, step
//! `embed_web_page`): looked up by exact path, so nothing outside the
//! table (`/../Cargo.toml`, an encoded `..`) can be named. `index.html`
//! gets the launch's token in place of its placeholder.

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));
}

/// One embedded file.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    /// Its URL path (`/app.js`).
    pub path: &'static str,
    pub bytes: &'static [u8],
    pub content_type: &'static str,
}

/// What `index.html` holds where the token goes.
pub const TOKEN_PLACEHOLDER: &str = "{{KILN_TOKEN}}";

/// Every embedded file, sorted by path.
pub fn all() -> impl Iterator<Item = Asset> {
    embedded::WEB_ASSETS
        .iter()
        .map(|&(path, bytes, content_type)| Asset {
            path,
            bytes,
            content_type,
        })
}

/// The file at URL path `path` (`/` is `/index.html`).
pub fn find(path: &str) -> Option<Asset> {
    let path = if path == "/" { "/index.html" } else { path };
    all().find(|asset| asset.path == path)
}

/// The page with `token` written into it.
pub fn index_page(token: &str) -> Option<Vec<u8>> {
    let page = std::str::from_utf8(find("/")?.bytes).ok()?;
    Some(page.replace(TOKEN_PLACEHOLDER, token).into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_file_has_its_licence_listed() {
        let listing = std::str::from_utf8(find("/LICENSES.md").expect("listed").bytes).unwrap();
        let listed: Vec<&str> = listing
            .lines()
            .filter_map(|line| line.strip_prefix("- "))
            .filter_map(|line| line.split_once(": "))
            .filter(|(_, licence)| !licence.trim().is_empty())
            .map(|(file, _)| file)
            .collect();
        let mut count = 0;
        for asset in all() {
            let file = asset.path.trim_start_matches('/');
            assert!(
                listed.contains(&file),
                "web/{file} has no line in web/LICENSES.md"
            );
            count += 1;
        }
        assert!(count >= 3);
    }

    #[test]
    fn the_page_carries_the_token_and_loads_the_script() {
        let page = String::from_utf8(index_page("abc123").unwrap()).unwrap();
        assert!(page.contains("<meta name=\"kiln-token\" content=\"abc123\">"));
        assert!(page.contains("<script type=\"module\" src=\"/app.js\">"));
        assert!(!page.contains(TOKEN_PLACEHOLDER));
        assert!(find("/app.js").is_some_and(|a| a.content_type.starts_with("text/javascript")));
        for odd in [
            "/../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "//app.js",
            "app.js",
            "",
        ] {
            assert!(find(odd).is_none(), "{odd}");
        }
    }
}
