//! The spec crate on small documents: each repair finds and fixes its pattern and says so when it no
//! longer finds it; undocumented parameters are checked and added; the surface and the release
//! comparison read what they should.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mattermost_spec::check::{self, Kind, Use};
use mattermost_spec::surface::{Location, Surface};
use mattermost_spec::{Overrides, Parameter, Repair, repairs};
use serde_json::{Value, json};

fn doc(paths: Value) -> Value {
    json!({
        "openapi": "3.0.0",
        "info": {"title": "t", "version": "4.0.0"},
        "paths": paths,
        "components": {"schemas": {"AppError": {"type": "object", "properties": {"id": {"type": "string"}}}}}
    })
}

fn repair(pass: &str) -> Repair {
    serde_yaml::from_str(&format!(
        "repair: {pass}\nupstream: Something is wrong upstream. More.\nchange: It is fixed.\n"
    ))
    .expect("repair")
}

fn with(mut r: Repair, file: &str) -> Repair {
    r.file = file.to_string();
    r
}

#[test]
fn a_duplicated_operation_id_gets_a_suffix_and_the_surface_agrees() {
    let mut d = doc(json!({
        "/api/v4/a/search": {"post": {"operationId": "Search", "responses": {"200": {"description": "ok"}}}},
        "/api/v4/b/search": {"post": {"operationId": "Search", "responses": {"200": {"description": "ok"}}}}
    }));
    let before = Surface::of(&d);
    assert!(
        before.get("Search").is_some() && before.get("Search2").is_some(),
        "the surface names them as the repair will"
    );
    let o = Overrides {
        repairs: vec![with(repair("dedupe_opids"), "r.yaml")],
        ..Overrides::default()
    };
    let n = repairs::normalize(&mut d, &o).expect("normalizes");
    assert_eq!(n.edits.len(), 1);
    assert_eq!(
        d.pointer("/paths/~1api~1v4~1b~1search/post/operationId"),
        Some(&json!("Search2"))
    );
}

#[test]
fn a_repair_that_finds_nothing_fails_naming_its_file() {
    let mut d = doc(
        json!({"/api/v4/a": {"get": {"operationId": "A", "responses": {"200": {"description": "ok"}}}}}),
    );
    let o = Overrides {
        repairs: vec![with(
            repair("dedupe_opids"),
            "overrides/repairs/dedupe.yaml",
        )],
        ..Overrides::default()
    };
    let errors = repairs::normalize(&mut d, &o).expect_err("nothing to repair");
    assert!(
        errors[0].starts_with("overrides/repairs/dedupe.yaml")
            && errors[0].contains("no longer finds"),
        "{errors:?}"
    );
}

#[test]
fn an_unknown_repair_is_refused_with_the_known_ones() {
    let mut d = doc(json!({}));
    let o = Overrides {
        repairs: vec![with(repair("make_it_work"), "x.yaml")],
        ..Overrides::default()
    };
    let errors = repairs::normalize(&mut d, &o).expect_err("unknown");
    assert!(
        errors[0].contains("unknown repair `make_it_work`") && errors[0].contains("dedupe_opids")
    );
}

#[test]
fn generic_repairs_fix_their_patterns() {
    let mut d = doc(json!({
        "/api/v4/u/{user_id}/x": {"get": {"operationId": "X", "responses": {
            "200": {"description": "ok", "content": {"application/json": null, "schema": {"type": "string"}}},
            "404": {"description": "no content"}
        }}},
        "/api/v4/up": {"post": {"operationId": "Up", "responses": {
            "201": {"description": "typed", "content": {"application/json": {"schema": {"type": "string"}}}},
            "204": {"description": "untyped"}
        }}}
    }));
    d["components"]["schemas"]["S"] = json!({"type": "object", "properties": {
        "state": {"type": "number", "enum": ["On", "Off"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "web": {"type": "object", "properties": {"a": {"type": "string"}}}
    }});
    d["components"]["schemas"]["SWeb"] = json!({"type": "object"});
    let passes = [
        "fix_content",
        "path_params",
        "fix_enum_type",
        "unify_errors",
        "unify_success",
        "fix_name_collisions",
        "nullable_collections",
    ];
    let o = Overrides {
        repairs: passes
            .iter()
            .map(|p| with(repair(p), &format!("{p}.yaml")))
            .collect(),
        ..Overrides::default()
    };
    let n = repairs::normalize(&mut d, &o).expect("every pass finds its pattern");
    let x = "/paths/~1api~1v4~1u~1{user_id}~1x/get";
    assert_eq!(
        d.pointer(&format!(
            "{x}/responses/200/content/application~1json/schema"
        )),
        Some(&json!({"type": "string"}))
    );
    assert_eq!(
        d.pointer(&format!("{x}/parameters/0/name")),
        Some(&json!("user_id"))
    );
    assert_eq!(
        d.pointer(&format!(
            "{x}/responses/404/content/application~1json/schema/$ref"
        )),
        Some(&json!("#/components/schemas/AppError"))
    );
    assert!(
        d.pointer("/paths/~1api~1v4~1up/post/responses/204")
            .is_none()
    );
    assert!(
        d.pointer("/components/schemas/S/properties/state/enum")
            .is_none()
    );
    assert_eq!(
        d.pointer("/components/schemas/S/properties/tags/nullable"),
        Some(&json!(true))
    );
    assert_eq!(
        d.pointer("/components/schemas/S/properties/web/$ref"),
        Some(&json!("#/components/schemas/SWebObject"))
    );
    for p in passes {
        assert!(n.edits.iter().any(|e| e.repair == p), "{p} made an edit");
    }
}

#[test]
fn multipart_operations_are_left_out_and_reported() {
    let mut d = doc(
        json!({"/api/v4/files": {"post": {"operationId": "UploadFile",
        "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object"}}}},
        "responses": {"201": {"description": "ok"}}}}}),
    );
    let n = repairs::normalize(&mut d, &Overrides::default()).expect("nothing to repair");
    assert_eq!(n.excluded.len(), 1);
    assert_eq!(n.excluded[0].operation, "UploadFile");
    assert!(d["paths"].as_object().is_some_and(|p| p.is_empty()));
}

fn param(operation: &str, location: &str, name: &str) -> Parameter {
    serde_yaml::from_str(&format!(
        "operation: {operation}\nin: {location}\nname: {name}\ntype: boolean\ndescription: d\nevidence: {{source: s.go, function: f, reads: r}}\ntest: tests/x.rs::t\n"
    ))
    .expect("parameter")
}

#[test]
fn undocumented_parameters_are_checked_and_added_as_typed_parameters() {
    let mut d = doc(
        json!({"/api/v4/p": {"get": {"operationId": "P", "parameters": [{"name": "page", "in": "query", "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok"}}}}}),
    );
    let upstream = Surface::of(&d);
    let ok = Overrides {
        parameters: vec![param("P", "query", "collapsed")],
        ..Overrides::default()
    };
    assert!(ok.check_parameters(&upstream).is_empty());
    let documented = Overrides {
        parameters: vec![param("P", "query", "page")],
        ..Overrides::default()
    };
    assert!(documented.check_parameters(&upstream)[0].contains("is documented"));
    let missing = Overrides {
        parameters: vec![param("Nope", "query", "x")],
        ..Overrides::default()
    };
    assert!(missing.check_parameters(&upstream)[0].contains("does not exist"));
    repairs::normalize(&mut d, &ok).expect("adds it");
    let op = Surface::of(&d).get("P").cloned().expect("P");
    assert_eq!(
        op.param(Location::Query, "collapsed")
            .map(|p| p.ty.as_str()),
        Some("boolean")
    );
}

#[test]
fn spec_check_names_missing_changed_and_new_operations_with_their_tools() {
    let pinned_doc = doc(json!({
        "/api/v4/a": {"get": {"operationId": "A", "parameters": [{"name": "x", "in": "query", "schema": {"type": "string"}}], "responses": {"200": {"description": "ok"}}}},
        "/api/v4/b": {"get": {"operationId": "B", "responses": {"200": {"description": "ok"}}}}
    }));
    let other = doc(json!({
        "/api/v4/a": {"get": {"operationId": "A", "parameters": [{"name": "y", "in": "query", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "ok"}}}},
        "/api/v4/c": {"get": {"operationId": "C", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}}}}}
    }));
    let uses = vec![
        Use {
            tool: "tool_a".into(),
            operation: "A".into(),
            sends: vec!["x".into()],
        },
        Use {
            tool: "tool_b".into(),
            operation: "B".into(),
            sends: vec![],
        },
    ];
    let report = check::compare(
        &Surface::of(&pinned_doc),
        &other,
        &Overrides::default(),
        &uses,
    );
    assert!(!report.buildable());
    assert!(
        report
            .of(Kind::Missing)
            .any(|f| f.line.contains('B') && f.line.contains("tool_b"))
    );
    assert!(
        report
            .of(Kind::Changed)
            .any(|f| f.line.contains("`x`") && f.line.contains("tool_a"))
    );
    assert!(
        report
            .of(Kind::Changed)
            .any(|f| f.line.contains("new required") && f.line.contains("`y`"))
    );
    assert!(report.of(Kind::NewList).any(|f| f.line.starts_with("C ")));
    let same = check::compare(
        &Surface::of(&pinned_doc),
        &pinned_doc,
        &Overrides::default(),
        &uses,
    );
    assert!(
        same.buildable() && same.findings.is_empty(),
        "{:?}",
        same.findings
    );
}

#[test]
fn an_older_spec_with_relative_paths_is_read_with_its_servers_base_path() {
    let mut d = doc(
        json!({"/posts/{post_id}": {"get": {"operationId": "GetPost", "responses": {"200": {"description": "ok"}}}}}),
    );
    d["servers"] = json!([{"url": "http://your-mattermost-url.com/api/v4"}]);
    assert_eq!(
        Surface::of(&d).get("GetPost").map(|o| o.path.as_str()),
        Some("/api/v4/posts/{post_id}")
    );
    repairs::normalize(&mut d, &Overrides::default()).expect("normalizes");
    assert!(d["paths"].get("/api/v4/posts/{post_id}").is_some());
    assert_eq!(
        d["servers"][0]["url"],
        json!("http://your-mattermost-url.com")
    );
}

#[test]
fn operations_that_answer_an_array_are_marked_to_read_null_as_empty() {
    let mut d = doc(json!({
        "/api/v4/posts/{post_id}/reactions": {"get": {"operationId": "GetReactions", "responses": {"200": {
            "description": "ok",
            "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}}}}},
        "/api/v4/drafts": {"get": {"operationId": "GetDrafts", "responses": {"200": {
            "description": "ok",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Drafts"}}}}}}},
        "/api/v4/users/me": {"get": {"operationId": "GetUser", "responses": {"200": {
            "description": "ok",
            "content": {"application/json": {"schema": {"type": "object"}}}}}}}
    }));
    d["components"]["schemas"]["Drafts"] = json!({"type": "array", "items": {"type": "string"}});
    let o = Overrides {
        repairs: vec![with(repair("null_array_responses"), "null.yaml")],
        ..Overrides::default()
    };
    let n = repairs::normalize(&mut d, &o).expect("normalizes");
    assert_eq!(n.edits.len(), 2, "{:?}", n.edits);
    let marked = |p: &str| d.pointer(p).and_then(Value::as_bool) == Some(true);
    assert!(marked(
        "/paths/~1api~1v4~1posts~1{post_id}~1reactions/get/x-null-is-empty"
    ));
    assert!(
        marked("/paths/~1api~1v4~1drafts/get/x-null-is-empty"),
        "through a $ref too"
    );
    assert!(
        !marked("/paths/~1api~1v4~1users~1me/get/x-null-is-empty"),
        "an object is not an array"
    );
}
