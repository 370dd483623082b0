//! How post search matches text and modifiers (audit rows 6 and 7): `model/search_params.go`
//! ParseSearchParams, `app/post.go` SearchPostsForUser and `post_store.go` search (Postgres full
//! text with the `english` configuration).

use serde_json::json;

use crate::common::*;

async fn search(c: &Client, team: Option<&str>, terms: &str) -> Vec<String> {
    let path = match team {
        Some(t) => format!("/teams/{t}/posts/search"),
        None => "/posts/search".to_string(),
    };
    let r = c.post(&path, &json!({"terms": terms})).await;
    assert_eq!(r.status, 200, "{terms}: {}", r.text);
    r.order()
}

/// Audit row 6: `to_tsvector('english', Message) @@ to_tsquery(...)` stems words and drops stop
/// words, so "meeting" finds "meetings" and a search for "the" alone finds nothing.
#[tokio::test]
async fn search_finds_other_forms_of_a_word_and_ignores_stop_words() {
    let mut f = fixture();
    let p = f
        .world
        .post(&f.town, &f.bob, T0, "The meetings tomorrow are cancelled");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    assert_eq!(search(&c, Some(&team), "meeting").await, vec![p.clone()]);
    assert_eq!(search(&c, Some(&team), "cancel").await, vec![p.clone()]);
    assert_eq!(search(&c, Some(&team), "meet*").await, vec![p.clone()]);
    assert!(search(&c, Some(&team), "the").await.is_empty());
    assert!(search(&c, Some(&team), "meetingroom").await.is_empty());
}

/// Audit row 6: parseSearchFlags strips leading punctuation (`searchTermPuncStart`), so `@alice`
/// searches the word "alice"; a hyphen is a space (`specialSearchChars`).
#[tokio::test]
async fn search_for_at_alice_finds_every_post_with_the_word_alice() {
    let mut f = fixture();
    let plain = f.world.post(&f.town, &f.bob, T0, "ask Alice about it");
    let mention = f
        .world
        .post(&f.town, &f.bob, T0 + 1, "@alice please review");
    let hyphen = f.world.post(&f.town, &f.bob, T0 + 2, "the on-call rota");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "carol").await;
    assert_eq!(
        search(&c, Some(&team), "@alice").await,
        vec![mention.clone(), plain.clone()]
    );
    assert_eq!(search(&c, Some(&team), "on-call").await, vec![hyphen]);
}

/// Audit row 6: excluded words apply to their own group (plain words or hashtags), and a group of
/// excluded words alone is a tsquery syntax error that the store logs and answers as no results.
#[tokio::test]
async fn excluded_words_apply_within_their_own_group_and_alone_find_nothing() {
    let mut f = fixture();
    let p1 = f.world.post(&f.town, &f.bob, T0, "deploy #release");
    let p2 = f.world.post(&f.town, &f.bob, T0 + 1, "#release later");
    let p3 = f.world.post(&f.town, &f.bob, T0 + 2, "deploy soon");
    f.world.post(&f.town, &f.bob, T0 + 3, "deploy later");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    assert_eq!(
        search(&c, Some(&team), "deploy #release -later").await,
        vec![p3.clone(), p2.clone(), p1.clone()]
    );
    assert!(search(&c, Some(&team), "-deploy").await.is_empty());
    // "now" is an English stop word, so excluding it excludes nothing
    assert_eq!(search(&c, Some(&team), "soon -now").await, vec![p3.clone()]);
}

/// Audit row 6: `#rel*` is not a valid hashtag (`validHashtag`), so it is a plain prefix search of
/// the message rather than of the hashtags.
#[tokio::test]
async fn a_hashtag_with_a_wildcard_is_a_prefix_search_of_the_message() {
    let mut f = fixture();
    let words = f.world.post(&f.town, &f.bob, T0, "release notes are out");
    let tagged = f.world.post(&f.town, &f.bob, T0 + 1, "shipping #release");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    assert_eq!(
        search(&c, Some(&team), "#rel*").await,
        vec![tagged.clone(), words.clone()]
    );
    assert_eq!(search(&c, Some(&team), "#release").await, vec![tagged]);
}

/// Audit row 7: `-on:`, `-before:` and `-after:` are exclusions (ExcludedDate,
/// ExcludedBeforeDate, ExcludedAfterDate), not the same as their positive forms.
#[tokio::test]
async fn negated_date_modifiers_exclude_those_days() {
    let mut f = fixture();
    // T0 is 2023-11-14T22:13:20Z
    let day = 86_400_000;
    let d13 = f.world.post(&f.town, &f.bob, T0 - day, "report one");
    let d14 = f.world.post(&f.town, &f.bob, T0, "report two");
    let d15 = f.world.post(&f.town, &f.bob, T0 + day, "report three");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let t = Some(team.as_str());
    assert_eq!(
        search(&c, t, "report -on:2023-11-14").await,
        vec![d15.clone(), d13.clone()]
    );
    assert_eq!(
        search(&c, t, "report -before:2023-11-14").await,
        vec![d15.clone(), d14.clone()]
    );
    assert_eq!(
        search(&c, t, "report -after:2023-11-14").await,
        vec![d14.clone(), d13.clone()]
    );
    assert_eq!(search(&c, t, "report on:2023-11-14").await, vec![d14]);
}

/// Audit row 7: `in:` names go through GetChannelByName(name, teamID); in the all-teams search the
/// team is "", so only team-less (DM/GM) names resolve and `in:town-square` matches nothing.
#[tokio::test]
async fn in_a_team_channel_matches_nothing_in_an_all_teams_search() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "needle here");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    assert!(search(&c, None, "needle in:town-square").await.is_empty());
    assert_eq!(
        search(&c, Some(&team), "needle in:town-square").await,
        vec![p]
    );
}

/// Audit row 7: `buildSearchPostFilterClause` limits `from:` to users with a membership row in the
/// searched team; the all-teams search has no such limit.
#[tokio::test]
async fn from_in_a_team_search_only_finds_members_of_that_team() {
    let mut f = fixture();
    let dave = f.world.user("dave");
    let dm = f.world.direct(&f.alice, &dave);
    let p = f.world.post(&dm, &dave, T0, "needle from dave");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    assert!(search(&c, Some(&team), "needle from:dave").await.is_empty());
    assert_eq!(search(&c, None, "needle from:dave").await, vec![p]);
}
