//! The permission checks the routes make. The read routes check membership and the system admin
//! role (`SessionHasPermissionToReadChannel`, `SessionHasPermissionToTeam`); the write routes check
//! as `app/authorization.go` does, over the default roles of `model/role.go` `MakeDefaultRoles`
//! (system_user, system_admin, team_user, team_admin, channel_user, channel_admin) as the permission
//! migrations leave them (`app/permissions_migrations.go`: `channelModerationPermissionsMigration`
//! gives channel and team admins `create_post` and the moderated permissions,
//! `getAddUploadFilePermissionMigration` `upload_file` to whoever may post), and one channel
//! moderation: a read-only channel, whose member role has lost `create_post`
//! (`PatchChannelModerationsForChannel`; admins keep it).

use super::{Channel, World};

/// The permissions the write routes check (the ids of `model/permission.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Perm {
    CreatePost,
    CreatePostPublic,
    UploadFile,
    EditPost,
    EditOthersPosts,
    DeletePost,
    DeleteOthersPosts,
    AddReaction,
    RemoveReaction,
    RemoveOthersReactions,
    ReadChannel,
    ReadChannelContent,
    ReadPublicChannel,
    ManagePublicChannelMembers,
    ManagePrivateChannelMembers,
    DeletePublicChannel,
    DeletePrivateChannel,
    JoinPublicChannels,
    CreatePublicChannel,
    CreatePrivateChannel,
    CreateDirectChannel,
    CreateGroupChannel,
    RemoveUserFromTeam,
    ViewTeam,
    UseChannelMentions,
    ManageSystem,
}

use Perm::*;

/// `channel_user` of `MakeDefaultRoles` (the permissions of it that the routes check).
const CHANNEL_USER: &[Perm] = &[
    ReadChannel,
    ReadChannelContent,
    AddReaction,
    RemoveReaction,
    ManagePublicChannelMembers,
    UploadFile,
    CreatePost,
    UseChannelMentions,
    DeletePublicChannel,
    DeletePrivateChannel,
    ManagePrivateChannelMembers,
    DeletePost,
    EditPost,
];

/// `team_user`.
const TEAM_USER: &[Perm] = &[
    JoinPublicChannels,
    ReadPublicChannel,
    ViewTeam,
    CreatePublicChannel,
    CreatePrivateChannel,
];

/// `channel_admin` after the migrations.
const CHANNEL_ADMIN: &[Perm] = &[
    CreatePost,
    UploadFile,
    AddReaction,
    RemoveReaction,
    ManagePublicChannelMembers,
    ManagePrivateChannelMembers,
    UseChannelMentions,
];

/// `team_admin` after the migrations.
const TEAM_ADMIN: &[Perm] = &[
    RemoveUserFromTeam,
    DeletePost,
    DeleteOthersPosts,
    CreatePost,
    UploadFile,
    AddReaction,
    RemoveReaction,
    ManagePublicChannelMembers,
    ManagePrivateChannelMembers,
    UseChannelMentions,
];

/// `system_user`.
const SYSTEM_USER: &[Perm] = &[CreateDirectChannel, CreateGroupChannel];

// ----- the read checks ---------------------------------------------------------------------------

impl World {
    /// The user has the `system_admin` role (`SessionHasPermissionTo(manage_system)`).
    pub(crate) fn is_admin(&self, user_id: &str) -> bool {
        self.user_by_id(user_id).is_some_and(|u| u.is_admin())
    }

    /// `SessionHasPermissionToReadChannel`: members read any channel; a team member reads the
    /// public channels of that team without joining; admins read everything.
    pub(crate) fn can_read_channel(&self, user_id: &str, channel: &Channel) -> bool {
        if self.is_admin(user_id) || self.member(&channel.id, user_id).is_some() {
            return true;
        }
        channel.kind == "O" && self.is_team_member(&channel.team_id, user_id)
    }

    /// `SessionHasPermissionToTeam(view_team)`: an active member (or an admin).
    pub(crate) fn can_view_team(&self, user_id: &str, team_id: &str) -> bool {
        self.is_admin(user_id) || self.is_team_member(team_id, user_id)
    }
}

// ----- the write checks --------------------------------------------------------------------------

impl World {
    /// `SessionHasPermissionTo`: the system roles (`system_admin` has every permission).
    pub(crate) fn has_permission(&self, user_id: &str, perm: Perm) -> bool {
        if self.is_admin(user_id) {
            return true;
        }
        self.user_by_id(user_id).is_some() && SYSTEM_USER.contains(&perm)
    }

    /// An active team membership (the session's team members leave out deleted ones).
    fn team_roles_grant(&self, user_id: &str, team_id: &str, perm: Perm) -> bool {
        if !self.is_team_member(team_id, user_id) {
            return false;
        }
        TEAM_USER.contains(&perm)
            || (self.is_team_admin(team_id, user_id) && TEAM_ADMIN.contains(&perm))
    }

    /// `SessionHasPermissionToTeam`: no team → false; the team member's roles, then the system's.
    pub(crate) fn has_team_permission(&self, user_id: &str, team_id: &str, perm: Perm) -> bool {
        if team_id.is_empty() {
            return false;
        }
        self.team_roles_grant(user_id, team_id, perm) || self.has_permission(user_id, perm)
    }

    /// The roles of a channel membership: `channel_user` (less `create_post` in a read-only
    /// channel) and, for a channel admin, `channel_admin`.
    fn channel_roles_grant(&self, channel_id: &str, user_id: &str, perm: Perm) -> bool {
        let Some(m) = self.member(channel_id, user_id) else {
            return false;
        };
        if m.admin && CHANNEL_ADMIN.contains(&perm) {
            return true;
        }
        if perm == CreatePost && self.writes.read_only.contains(channel_id) {
            return false;
        }
        CHANNEL_USER.contains(&perm)
    }

    /// `SessionHasPermissionToChannel` → (has permission, is member): an unknown channel → false;
    /// the membership's roles; `manage_system`; then the team's roles (or the system's for DMs).
    pub(crate) fn has_channel_permission(
        &self,
        user_id: &str,
        channel_id: &str,
        perm: Perm,
    ) -> (bool, bool) {
        let Some(channel) = self.channel_by_id(channel_id) else {
            return (false, false);
        };
        let is_member = self.member(channel_id, user_id).is_some();
        if self.channel_roles_grant(channel_id, user_id, perm) || self.is_admin(user_id) {
            return (true, is_member);
        }
        if !channel.team_id.is_empty() {
            return (
                self.has_team_permission(user_id, &channel.team_id, perm),
                is_member,
            );
        }
        (self.has_permission(user_id, perm), is_member)
    }

    /// `SessionHasPermissionToChannelByPost`: the membership of the post's channel, then that
    /// channel's team, then the system roles (deleted posts count: no `DeleteAt` filter).
    pub(crate) fn has_channel_permission_by_post(
        &self,
        user_id: &str,
        post_id: &str,
        perm: Perm,
    ) -> bool {
        let channel = self
            .post_by_id(post_id)
            .and_then(|p| self.channel_by_id(&p.channel_id));
        if let Some(c) = channel {
            if self.channel_roles_grant(&c.id, user_id, perm) {
                return true;
            }
            if !c.team_id.is_empty() {
                return self.has_team_permission(user_id, &c.team_id, perm);
            }
        }
        self.has_permission(user_id, perm)
    }

    /// `HasPermissionToReadChannel` → (can read, is member): `read_channel_content` on the
    /// channel, or a public channel and `read_public_channel` on its team.
    pub(crate) fn may_read_channel(&self, user_id: &str, channel: &Channel) -> (bool, bool) {
        let (ok, member) = self.has_channel_permission(user_id, &channel.id, ReadChannelContent);
        if ok {
            return (true, member);
        }
        if channel.kind == "O" {
            return (
                self.has_team_permission(user_id, &channel.team_id, ReadPublicChannel),
                false,
            );
        }
        (false, false)
    }

    /// `SessionHasPermissionToReadPost`: the channel of the post (deleted or not); for an unknown
    /// post, `read_channel_content` from the system roles.
    pub(crate) fn may_read_post(&self, user_id: &str, post_id: &str) -> bool {
        match self
            .post_by_id(post_id)
            .and_then(|p| self.channel_by_id(&p.channel_id))
        {
            Some(c) => self.may_read_channel(user_id, c).0,
            None => self.has_permission(user_id, ReadChannelContent),
        }
    }

    /// `userCreatePostPermissionCheckWithContext`: `create_post` on the channel, or a public
    /// channel and `create_post_public` on its team.
    pub(crate) fn may_create_post(&self, user_id: &str, channel_id: &str) -> bool {
        if self
            .has_channel_permission(user_id, channel_id, CreatePost)
            .0
        {
            return true;
        }
        self.channel_by_id(channel_id).is_some_and(|c| {
            c.kind == "O" && self.has_team_permission(user_id, &c.team_id, CreatePostPublic)
        })
    }

    /// `SessionHasPermissionToUser`: oneself, or `manage_system` (`edit_other_users` belongs to no
    /// default role but the admin's).
    pub(crate) fn may_act_for_user(&self, session_user: &str, user_id: &str) -> bool {
        !user_id.is_empty() && (session_user == user_id || self.is_admin(session_user))
    }
}
