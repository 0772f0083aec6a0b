// The workspace (group) a running server belongs to, as the service answers it: `createServer`'s `workspace`, and the
// deployed service's `getServer`. Its `loaderId` is the workspace's API key, echoed: the api client redacts it.
import { bool, num, object, opt, Reader, str, strings } from "../reader";

/**
 * The workspace (group) a server was registered in, as `createServer` returns it.
 * @see README#typed-client
 */
export interface Workspace {
	readonly groupId?: string;
	/** The deployed service names these fields differently; what it sends is kept as it is. */
	readonly owner?: { readonly serviceId?: string; readonly platformId?: string };
	readonly minSyncRole?: number;
	/**
	 * The service echoes the workspace's API key here; the client always replaces it with `<redacted>`, so the key
	 * never reaches game code, a log line or a signal.
	 */
	readonly loaderId?: string;
	readonly currentDistribution?: number;
	readonly distributionPeriod?: string;
	readonly distributionDMs?: boolean;
	readonly premium?: {
		readonly is?: boolean;
		readonly subscriptionId?: string;
		readonly planType?: string;
		/** The deployed service names these fields differently; what it sends is kept as it is. */
		readonly managedBy?: { readonly platformId?: string; readonly customerId?: string };
	};
	readonly tags?: ReadonlyArray<string>;
	readonly created?: string;
	readonly brandColor?: string;
	readonly groupName?: string;
	readonly syncing?: boolean;
	readonly lastSynced?: string;
	readonly trackedStaff?: number;
	readonly overrideRoleMaximumSize?: number;
	readonly banStatus?: { readonly is?: boolean; readonly reason?: string; readonly bannedBy?: string };
}

/** The workspace reader; the deployed service's `getServer` answers it too. @internal */
export const workspace: Reader<Workspace> = object({
	groupId: opt(str),
	owner: opt(object({ serviceId: opt(str), platformId: opt(str) })),
	minSyncRole: opt(num),
	loaderId: opt(str),
	currentDistribution: opt(num),
	distributionPeriod: opt(str),
	distributionDMs: opt(bool),
	premium: opt(
		object({
			is: opt(bool),
			subscriptionId: opt(str),
			planType: opt(str),
			managedBy: opt(object({ platformId: opt(str), customerId: opt(str) })),
		}),
	),
	tags: opt(strings),
	created: opt(str),
	brandColor: opt(str),
	groupName: opt(str),
	syncing: opt(bool),
	lastSynced: opt(str),
	trackedStaff: opt(num),
	overrideRoleMaximumSize: opt(num),
	banStatus: opt(object({ is: opt(bool), reason: opt(str), bannedBy: opt(str) })),
});
