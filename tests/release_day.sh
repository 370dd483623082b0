#!/usr/bin/env bash
# The release-day rehearsal (CI runs it): the release-day command, on a release-like spec, in a scratch
# copy of this checkout, from the report to green tests.
#
# The release-like spec is the pinned copy plus the real changes of Mattermost 11.11.1 to what the tools
# use (tests/release_day/11.11.1-changes.json: facts only). The rehearsal
#   1. runs release-day: it must stop for a person, with a report that names every one of those changes;
#   2. plays the person: makes the type renames with the sed commands release-day printed, and the declaration and
#      code edits of tests/release_day/person.patch (what a maintainer writes for 11.11.1);
#   3. runs release-day --continue: it retires the drafts repairs, pins, builds, writes
#      spec/table-uses.json and runs the tests the spec can change (the main crate's own tests, the
#      integration suites that check declarations against the spec and the tools the change reaches,
#      and the spec crate's), which must pass;
#   4. checks what it left: the repairs gone, the pin moved, spec-check on the new pin clean.
#
# The scratch copy shares this checkout's target directory (CARGO_TARGET_DIR, else ./target), so only the
# workspace's own crates are built again: one debug build of the main crate. That build replaces this
# checkout's artifacts of the main crate; the next build here rebuilds them (CI runs this last). Set
# REHEARSAL_TARGET_DIR to build elsewhere instead (every dependency is then built again).
#
# Usage: bash tests/release_day.sh            (prints the times of each step)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/release-day-rehearsal.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
export CARGO_TARGET_DIR="${REHEARSAL_TARGET_DIR:-${CARGO_TARGET_DIR:-$repo/target}}"
unset MATTERMOST_OPENAPI MATTERMOST_OPENAPI_SHA256
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - started )) s"; }
fail() { echo "REHEARSAL FAILED: $*" >&2; exit 1; }

echo "== rehearsal: a scratch copy of the working tree in $scratch/checkout"
mkdir -p "$scratch/checkout"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) \
    | (cd "$scratch/checkout" && tar -xf -)
# Mattermost's own files beside the copy, as beside the checkout (when they are there).
if [ -d "$repo/../shared" ]; then
    ln -s "$(cd "$repo/../shared" && pwd)" "$scratch/shared"
fi
cd "$scratch/checkout"

echo "== rehearsal: the release-like spec ($(elapsed))"
cargo build -q -p mattermost-spec --bins
bin="$CARGO_TARGET_DIR/debug"
pinned_copy="spec/$(sed -n 's/^stripped: //p' spec/pinned.yaml)"
spec="$scratch/mattermost-openapi-v4-11.11.1-rehearsal.json"
"$bin/spec-patch" "$pinned_copy" tests/release_day/11.11.1-changes.json --out "$spec"

echo "== rehearsal: release-day, first run: it stops for a person ($(elapsed))"
set +e
"$bin/release-day" "$spec" > "$scratch/first.txt" 2>&1
code=$?
set -e
cat "$scratch/first.txt"
[ "$code" -eq 3 ] || fail "release-day should stop for a person (exit 3), it exited $code"

# The report names every change of the patch: if one is missing, the rehearsal fails.
expect() {
    grep -qF -- "$1" "$scratch/first.txt" || fail "the report does not say: $1"
}
expect "MarkAllTeamChannelsRead (PUT /api/v4/users/{user_id}/teams/{team_id}/read)"
expect "GetPostsForChannel: new optional parameter \`type\` (string); account for it in the declarations of read_channel, read_inbox, read_unread, wait_for_activity"
expect "UpsertDraft: the parameter \`body.user_id\` the tools send is not in this spec; used by save_draft"
expect "UpsertDraft: new optional parameters \`body.priority\` (PostPriority), \`body.props\` (object), \`body.type\` (string)"
expect "overrides/repairs/GetDrafts.add.yaml: the repair \`add_operation\` no longer finds what it repairs"
expect "it answers 200 array<Draft> (was 200 array<object>)"
expect "type GetDraftsResponseItem -> Draft"
expect "overrides/repairs/UpsertDraft.add.yaml: the repair \`add_operation\` no longer finds what it repairs"
expect "type UpsertDraftBody -> DraftUpsertRequest"
expect "3 added (2 the tools call), 0 removed"

echo "== rehearsal: the person makes the renames release-day printed, and the edits of person.patch ($(elapsed))"
renames="$(grep -o "sed -i '[^']*' .*" "$scratch/first.txt" || true)"
[ -n "$renames" ] || fail "release-day printed no rename command"
while IFS= read -r command; do
    echo "\$ $command"
    eval "$command"
done <<< "$renames"
git apply --verbose tests/release_day/person.patch \
    || fail "tests/release_day/person.patch no longer applies: redo the person's edits for 11.11.1 on today's code (see the report above) and write the patch again"

# The tests the rehearsal runs are the ones this spec change can turn red: the main crate's own tests,
# the integration suites that hold every declaration against the spec (contract, governance, schemas,
# writes_spec, undocumented_parameters), the tools the report names (read_channel, read_unread,
# read_inbox, wait_for_activity: read_channel, reading, inbox, live; the drafts: writes) and the
# gateway's catalogue (operations, gateway); and the spec crate's.
# CI ran the whole suite on the pinned spec just before; a maintainer's release-day runs all of it
# (its default, --workspace).
echo "== rehearsal: release-day --continue, to green tests ($(elapsed))"
"$bin/release-day" "$spec" --continue \
    --tests "-p mattermost-mcp --lib" \
    --tests "-p mattermost-mcp --test integration -- contract:: governance:: schemas:: writes_spec:: undocumented_parameters:: read_channel:: reading:: inbox:: live:: writes:: operations:: gateway::" \
    --tests "-p mattermost-spec" \
    || fail "release-day --continue did not finish"

echo "== rehearsal: what it left ($(elapsed))"
for f in overrides/repairs/GetDrafts.add.yaml overrides/repairs/UpsertDraft.add.yaml; do
    [ ! -e "$f" ] || fail "$f was not retired"
done
grep -q '^release: 11.11.1-rehearsal$' spec/pinned.yaml || fail "spec/pinned.yaml does not pin the rehearsal release"
[ -f spec/mattermost-openapi-v4-11.11.1-rehearsal.stripped.json ] || fail "the new stripped copy is not in spec/"
grep -q '"MarkAllTeamChannelsRead"' spec/mattermost-openapi-v4-11.11.1-rehearsal.stripped.json \
    || fail "the new copy lacks MarkAllTeamChannelsRead"
"$bin/release-day" "spec/mattermost-openapi-v4-11.11.1-rehearsal.stripped.json" --check > "$scratch/after.txt" \
    || { cat "$scratch/after.txt"; fail "spec-check on the new pin is not clean"; }
echo "== rehearsal: passed in $(elapsed)"
