import type { HistoryItem } from "../model.js";

/** Items recorded before this moment come from the deployed service's older version, which stored numeric ids. */
const LEGACY_BEFORE_MS = Date.parse("2024-05-01T00:00:00.000Z");

/** A history item as the deployed service stores it; wider than the interface's HistoryItem. */
export type DeployedHistoryItem = Omit<HistoryItem, "userId" | "disciplinarianId" | "rankTo" | "ended"> & {
	userId: boolean | string | number;
	disciplinarianId: string | number;
	rankTo?: string | false;
	ended?: boolean;
};

function numericIfDigits(id: string): string | number {
	return /^\d+$/.test(id) ? Number(id) : id;
}

/**
 * How the deployed service answers a history item, by rules that hold for any seed: legacy items (created
 * before 2024-05-01) carry `userId`/`disciplinarianId` as numbers, an item without a rank change has
 * `rankTo:false`, a writeup (which never ends) has no `ended`; and the list keeps `type`.
 */
export function deployedHistoryView(item: HistoryItem): DeployedHistoryItem {
	const copy: DeployedHistoryItem = structuredClone(item);
	if (Date.parse(item.created) < LEGACY_BEFORE_MS) {
		if (typeof item.userId === "string") copy.userId = numericIfDigits(item.userId);
		copy.disciplinarianId = numericIfDigits(item.disciplinarianId);
	}
	if (copy.rankTo === undefined) copy.rankTo = false;
	if (item.type === "writeup") delete copy.ended;
	return copy;
}
