// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC loss recovery on the send queue (RFC 9002 Sections 5 to 7 and
 * Appendix A): acknowledgment processing, loss detection by packet and
 * time threshold, persistent congestion, the loss detection timer with its
 * probe timeouts, and discarding a packet number space (RFC 9001 Section
 * 4.9, RFC 9002 Section 6.4).
 *
 * The arithmetic (RTT, PTO period, thresholds, window) is cong.c's; this
 * file decides which sent packets are acknowledged, lost or discarded and
 * reports them in the order of Appendix A.7: RTT sample, ECN, losses, then
 * acknowledgments.
 */

#include <linux/slab.h>

#include "outqueue.h"
#include "pmtu.h"

/* Take a packet out of its space's in-flight accounting and its count of
 * ACK-only records.
 */
static void quic_outq_unflight(struct quic_outq *outq, u8 idx, struct quic_outq_packet *pkt)
{
	struct quic_pnspace *space = &outq->pnspace[idx];

	if (!pkt->in_flight && outq->spaces[idx].ack_only)
		outq->spaces[idx].ack_only--;
	if (!pkt->ack_eliciting)
		return;
	space->inflight -= min(pkt->size, space->inflight);
	if (outq->spaces[idx].eliciting)
		outq->spaces[idx].eliciting--;
}

/* RFC 9000 Section 13.4.2.1: when every packet marked while testing was
 * lost, the path (or a middlebox) drops ECT packets: stop marking.
 */
static void quic_outq_ecn_lost(struct quic_outq *outq, const struct quic_outq_packet *pkt)
{
	if (!pkt->ecn || outq->ecn_state != QUIC_ECN_TESTING)
		return;
	if (++outq->ecn_lost >= QUIC_ECN_TEST_PACKETS)
		outq->ecn_state = QUIC_ECN_FAILED;
}

static u64 quic_outq_ecn_grew(const u64 *new, const u64 *old, int i)
{
	return new[i] > old[i] ? new[i] - old[i] : 0;
}

/*
 * RFC 9000 Section 13.4.2.1: an ACK frame that newly acknowledges packets
 * we sent with ECT(0) must report ECT(0) and ECN-CE counts that grew by at
 * least their number, and no ECT(1) we never sent; otherwise marking stops
 * for good. The first ACK that passes ends the testing: the path is
 * ECN-capable. @old: the peer's counts before this frame.
 */
static void quic_outq_ecn_validate(struct quic_outq *outq, const struct quic_frame *f,
				   const u64 *old, u32 marked)
{
	const u64 *new = f->ack.ecn;
	u64 grew;

	if (!marked || outq->ecn_state == QUIC_ECN_FAILED)
		return;
	if (f->type != QUIC_FRAME_ACK_ECN) {
		outq->ecn_state = QUIC_ECN_FAILED;
		return;
	}
	/* Counts only grow; a reordered ACK may carry older ones. */
	grew = quic_outq_ecn_grew(new, old, QUIC_ECN_ECT0) +
	       quic_outq_ecn_grew(new, old, QUIC_ECN_CE);
	if (grew < marked || new[QUIC_ECN_ECT1] > old[QUIC_ECN_ECT1]) {
		outq->ecn_state = QUIC_ECN_FAILED;
		return;
	}
	outq->ecn_state = QUIC_ECN_CAPABLE;
}

/* Eligible for persistent congestion: ack-eliciting and sent after the
 * first RTT sample (RFC 9002 Sections 7.6.1 and 7.6.2).
 */
static bool quic_outq_pc_eligible(const struct quic_outq *outq,
				  const struct quic_outq_packet *pkt)
{
	const struct quic_cong *cong = outq->cong;

	return pkt->ack_eliciting && !pkt->pmtu_probe && cong->rtt_sampled &&
	       pkt->sent_time > cong->first_rtt_sample;
}

/* DetectAndRemoveLostPackets() and OnPacketsLost() of RFC 9002 Appendices
 * A.10 and B.8 for one space. Lost frames go back to the front of the
 * space's retransmission queue, oldest first.
 *
 * Persistent congestion (Section 7.6.2) needs two lost ack-eliciting
 * packets with nothing acknowledged between them. Every packet sent is
 * recorded, ACK-only ones included, so a run of consecutive packet numbers
 * all declared lost in one pass is such a period; an acknowledged packet
 * leaves a hole in the numbers and ends the run. Only this space is
 * considered, not all three as the RFC allows.
 */
static void quic_outq_detect_lost(struct quic_outq *outq, u8 idx, u64 now)
{
	struct quic_pnspace *space = &outq->pnspace[idx];
	struct quic_outq_space *sp = &outq->spaces[idx];
	struct quic_outq_frame *fr, *ftmp;
	struct quic_outq_packet *pkt, *tmp;
	u64 loss_time, first = 0;
	bool persistent = false, small = false, big_run = false;
	LIST_HEAD(requeue);
	s64 prev = -2;

	space->loss_time = 0;
	if (space->max_pn_acked_seen < 0)
		return;

	list_for_each_entry_safe(pkt, tmp, &sp->sent, list) {
		if (pkt->pn > space->max_pn_acked_seen)
			break;
		loss_time = 0;
		if (!quic_cong_is_lost(outq->cong, now, pkt->pn, pkt->sent_time,
				       space->max_pn_acked_seen, &loss_time)) {
			if (loss_time && (!space->loss_time || loss_time < space->loss_time))
				space->loss_time = loss_time;
			prev = -2;
			continue;
		}

		if (pkt->pn != prev + 1)
			first = 0;
		prev = pkt->pn;
		if (quic_outq_pc_eligible(outq, pkt)) {
			if (!first) {
				first = pkt->sent_time;
				small = false;
			}
			/* RFC 8899 Section 4.3: a path that drops every
			 * packet above BASE_PLPMTU for a whole persistent
			 * congestion period has become a black hole for the
			 * PLPMTU; one lost packet no larger than BASE says
			 * the loss is not about size.
			 */
			if (pkt->size <= QUIC_PL_BASE_PLPMTU)
				small = true;
			if (first != pkt->sent_time &&
			    quic_cong_is_persistent(outq->cong, first, pkt->sent_time)) {
				persistent = true;
				if (!small && idx == QUIC_CRYPTO_APP)
					big_run = true;
			}
		}

		list_del(&pkt->list);
		quic_outq_unflight(outq, idx, pkt);
		quic_outq_ecn_lost(outq, pkt);
		/* RFC 9000 Section 14.4: a lost probe says the size is too
		 * big for the path, not that the path is congested.
		 */
		if (pkt->pmtu_probe) {
			quic_cong_on_packet_discarded(outq->cong, pkt->size);
			if (outq->probe_done)
				outq->probe_done(outq, pkt->pn, false);
		} else if (pkt->in_flight) {
			quic_cong_on_packet_lost(outq->cong, now, pkt->sent_time, pkt->size);
		}
		list_for_each_entry_safe(fr, ftmp, &pkt->frames, list) {
			list_del(&fr->list);
			quic_outq_frame_lost(outq, fr, &requeue);
		}
		kfree(pkt);
	}
	list_splice(&requeue, &sp->retrans);
	if (persistent)
		quic_cong_on_persistent_congestion(outq->cong, now);
	if (big_run)
		outq->black_hole = 1;
}

/**
 * quic_outq_on_ack - process an ACK frame (RFC 9002 Appendix A.7 OnAckReceived())
 * @outq: the queue
 * @level: encryption level of the packet that carried the frame
 * @f: the decoded ACK or ACK_ECN frame
 * @ack_delay: its ACK Delay scaled by the peer's ack_delay_exponent, microseconds
 * @now: time the packet was received, microseconds
 *
 * Finds the newly acknowledged packets of the space. An RTT sample is taken
 * when the largest acknowledged is among them and at least one of them is
 * ack-eliciting (Section 5.1); @ack_delay counts only in the Application
 * space (Section 5.3; cong.c caps it by max_ack_delay once the handshake is
 * confirmed). An increased ECN-CE count is a congestion event (Section
 * 7.1). Then losses are detected (Section 6.1), and the acknowledged packets
 * leave bytes in flight and release their frames: a stream whose bytes and
 * FIN are all acknowledged moves to Data Recvd (&quic_outq.stream_acked).
 * The PTO backoff is reset unless we are a client that cannot yet tell
 * whether the server validated its address (Section 6.2.1); a client takes
 * an acknowledgment of a Handshake or 1-RTT packet as that proof (Appendix
 * A.8 PeerCompletedAddressValidation()).
 *
 * Return: 0, or -EPROTO (PROTOCOL_VIOLATION, RFC 9000 Section 13.1) when
 * the frame acknowledges a packet number never sent; nothing changes then.
 */
int quic_outq_on_ack(struct quic_outq *outq, u8 level, const struct quic_frame *f,
		     u64 ack_delay, u64 now)
{
	const struct quic_frame_ack *ack = &f->ack;
	struct quic_outq_packet *pkt, *tmp, *largest = NULL;
	struct quic_frame_ack_iter it;
	struct quic_pnspace *space;
	struct quic_outq_frame *fr, *ftmp;
	struct quic_outq_space *sp;
	bool eliciting = false, more, newest;
	u64 lo, hi, old[QUIC_ECN_MAX];
	u32 marked = 0;
	LIST_HEAD(acked);
	u8 idx;

	if (level >= QUIC_CRYPTO_MAX)
		return -EINVAL;
	idx = quic_pnspace_index(level);
	space = &outq->pnspace[idx];
	sp = &outq->spaces[idx];
	if (space->next_pn <= 0 || ack->largest >= (u64)space->next_pn)
		return -EPROTO;

	/* Ranges come highest first: walk the sent packets from the top. */
	quic_frame_ack_iter_init(&it, ack);
	more = quic_frame_ack_next(&it, &lo, &hi);
	list_for_each_entry_safe_reverse(pkt, tmp, &sp->sent, list) {
		while (more && (u64)pkt->pn < lo)
			more = quic_frame_ack_next(&it, &lo, &hi);
		if (!more)
			break;
		if ((u64)pkt->pn > hi)
			continue;
		if (!largest)
			largest = pkt;
		eliciting |= pkt->ack_eliciting;
		marked += pkt->ecn;
		list_move(&pkt->list, &acked);
	}

	/* Section 13.4.2.1: a reordered ACK frame, which does not raise the
	 * largest acknowledged, may carry older ECN counts: it never fails
	 * ECN validation.
	 */
	newest = (s64)ack->largest > space->max_pn_acked_seen;
	quic_pnspace_set_max_pn_acked(space, ack->largest, now);
	if (!largest)
		return 0;

	if (largest->pn == ack->largest && eliciting)
		quic_cong_rtt_update(outq->cong, now, largest->sent_time,
				     idx == QUIC_CRYPTO_APP ? ack_delay : 0);
	memcpy(old, space->ecn_count[QUIC_ECN_PEER], sizeof(old));
	if (newest)
		quic_outq_ecn_validate(outq, f, old, marked);
	if (f->type == QUIC_FRAME_ACK_ECN && quic_pnspace_set_ecn_count(space, ack->ecn))
		quic_cong_on_ecn_ce(outq->cong, now, largest->sent_time);

	quic_outq_detect_lost(outq, idx, now);

	list_for_each_entry_safe(pkt, tmp, &acked, list) {
		list_del(&pkt->list);
		quic_outq_unflight(outq, idx, pkt);
		if (pkt->in_flight)
			quic_cong_on_packet_acked(outq->cong, now, pkt->sent_time, pkt->size);
		list_for_each_entry_safe(fr, ftmp, &pkt->frames, list) {
			list_del(&fr->list);
			quic_outq_frame_acked(outq, fr);
		}
		if (pkt->pmtu_probe && outq->probe_done)
			outq->probe_done(outq, pkt->pn, true);
		kfree(pkt);
	}

	if (!outq->is_serv && idx != QUIC_CRYPTO_INITIAL)
		outq->peer_validated = 1;
	if (outq->peer_validated)
		quic_cong_pto_reset(outq->cong);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_on_ack);

/*
 * Whether space @i needs a PTO: ack-eliciting packets in flight, or, in the
 * Initial and Handshake spaces, CRYPTO or other frames of lost packets
 * waiting to be sent again. Those are congestion controlled like any other
 * data, and a client whose window is full of 1-RTT packets that the
 * server cannot acknowledge before the handshake completes would otherwise
 * hold its lost Finished for good: no packet of the space in flight, no
 * PTO for the Application space before confirmation (RFC 9002 Section
 * 6.2.1), no timer at all. The PTO's probes ignore the window (Section 7.5)
 * and carry those frames first (Section 6.2.4).
 */
static bool quic_outq_space_needs_pto(const struct quic_outq *outq, int i)
{
	const struct quic_outq_space *sp = &outq->spaces[i];

	if (sp->eliciting)
		return true;
	return i != QUIC_CRYPTO_APP && !list_empty(&sp->retrans);
}

static bool quic_outq_eliciting_in_flight(const struct quic_outq *outq)
{
	int i;

	for (i = 0; i < QUIC_PNSPACE_MAX; i++)
		if (quic_outq_space_needs_pto(outq, i))
			return true;
	return false;
}

/* GetLossTimeAndSpace() of RFC 9002 Appendix A.8: 0 when none is set. */
static u64 quic_outq_loss_time(const struct quic_outq *outq, u8 *idx)
{
	static const u8 order[] = { QUIC_CRYPTO_INITIAL, QUIC_CRYPTO_HANDSHAKE, QUIC_CRYPTO_APP };
	u64 t, best = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		t = outq->pnspace[order[i]].loss_time;
		if (t && (!best || t < best)) {
			best = t;
			*idx = order[i];
		}
	}
	return best;
}

/*
 * The earliest PTO of the spaces with something to probe (ack-eliciting
 * packets in flight, or lost CRYPTO data), 0 for none: the Initial and
 * Handshake spaces, and with @app the Application space once the handshake
 * is confirmed (RFC 9002 Section 6.2.1).
 */
static u64 quic_outq_spaces_pto(const struct quic_outq *outq, bool app, u8 *idx)
{
	static const u8 order[] = { QUIC_CRYPTO_INITIAL, QUIC_CRYPTO_HANDSHAKE, QUIC_CRYPTO_APP };
	u64 t, best = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		if (order[i] == QUIC_CRYPTO_APP && (!app || !outq->confirmed))
			break;
		if (!quic_outq_space_needs_pto(outq, order[i]))
			continue;
		/* quic_cong_pto() adds max_ack_delay for the Application space. */
		t = outq->pnspace[order[i]].last_sent_time + quic_cong_pto(outq->cong, order[i]);
		if (!best || t < best) {
			best = t;
			*idx = order[i];
		}
	}
	return best;
}

/* GetPtoTimeAndSpace() of RFC 9002 Appendix A.8: 0 for no PTO. When no
 * space has a PTO of its own and the peer has not validated our address,
 * this is the client's anti-deadlock PTO, counted from @now (*@deadlock
 * set). Section 6.2.2.1 asks for it "even if there are no packets in
 * flight"; unlike the pseudocode, 0-RTT packets in flight do not take it
 * away, as the Application space has no PTO before confirmation and the
 * handshake would otherwise hang when the server's flight is lost.
 */
static u64 quic_outq_pto_time(const struct quic_outq *outq, u64 now, u8 *idx, bool *deadlock)
{
	u64 t = quic_outq_spaces_pto(outq, true, idx);

	*deadlock = false;
	if (t || outq->peer_validated)
		return t;
	*deadlock = true;
	*idx = outq->hs_keys ? QUIC_CRYPTO_HANDSHAKE : QUIC_CRYPTO_INITIAL;
	return now + quic_cong_pto(outq->cong, *idx);
}

/*
 * A loss time set in one space takes the timer first (Appendix A.8), but
 * not from a handshake space's PTO that is due sooner: this departs from
 * the pseudocode, where the PTO waits for every loss time to clear. A
 * client that sends 1-RTT data right after its Finished has, on a lossy
 * path, nearly always some 1-RTT packet waiting for the time threshold;
 * each new acknowledgment sets another loss time before the overdue PTO
 * gets its turn, and a lost Finished would never be sent again.
 *
 * Return: true, with that PTO's time in *@t and its space in *@idx, when
 * one is due before @loss; false otherwise (*@t and *@idx untouched).
 */
static bool quic_outq_hs_pto_first(const struct quic_outq *outq, u64 loss, u64 *t, u8 *idx)
{
	u64 pto;
	u8 i;

	if (outq->amp_limited)
		return false;
	pto = quic_outq_spaces_pto(outq, false, &i);
	if (!pto || pto >= loss)
		return false;
	*t = pto;
	*idx = i;
	return true;
}

/* quic_outq_loss_timer(), telling also whether the PTO is the anti-deadlock
 * one, which counts from @now.
 */
static u64 quic_outq_timer(const struct quic_outq *outq, u64 now, u8 *level, bool *deadlock)
{
	u64 t;
	u8 idx;

	*deadlock = false;
	t = quic_outq_loss_time(outq, &idx);
	if (t) {
		quic_outq_hs_pto_first(outq, t, &t, &idx);
		goto out;
	}
	if (outq->amp_limited)
		return 0;
	if (!quic_outq_eliciting_in_flight(outq) && outq->peer_validated)
		return 0;
	t = quic_outq_pto_time(outq, now, &idx, deadlock);
	if (!t)
		return 0;
out:
	*level = idx;
	return t;
}

/**
 * quic_outq_loss_timer - when the loss detection timer must fire
 * @outq: the queue
 * @now: current time, microseconds
 * @level: set to the level (&enum quic_crypto_level) of the space it is for
 *
 * SetLossDetectionTimer() of RFC 9002 Appendix A.8: the earliest loss time
 * of the spaces (time threshold, Section 6.1.2), or an Initial or Handshake
 * PTO due before it (quic_outq_hs_pto_first()); otherwise no timer while
 * a server is blocked by the anti-amplification limit, nor when nothing
 * ack-eliciting is in flight and the peer has validated our address
 * (&quic_outq.peer_validated; a client with nothing in flight but 0-RTT
 * packets keeps an anti-deadlock PTO in its Handshake space once it has
 * Handshake keys, else its Initial space); otherwise the earliest PTO of the spaces with
 * ack-eliciting packets in flight, the Application space only once the
 * handshake is confirmed.
 *
 * Return: the absolute expiry in microseconds, or 0 for no timer.
 */
u64 quic_outq_loss_timer(const struct quic_outq *outq, u64 now, u8 *level)
{
	bool deadlock;

	return quic_outq_timer(outq, now, level, &deadlock);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_loss_timer);

/* RFC 9002 Section 6.2.4: the next packets of the space are probes; what
 * each carries is chosen as it is built (quic_outq_fill()).
 */
static void quic_outq_probe(struct quic_outq *outq, u8 idx)
{
	outq->spaces[idx].probe = QUIC_OUTQ_PTO_PROBES;
}

/**
 * quic_outq_loss_timeout - the loss detection timer fired
 * @outq: the queue
 * @now: current time, microseconds
 * @level: set to the level of the space handled
 *
 * OnLossDetectionTimeout() of RFC 9002 Appendix A.9. With a loss time set,
 * the packets of that space past the time threshold are declared lost,
 * unless that time is still ahead and an Initial or Handshake PTO is due
 * (quic_outq_hs_pto_first()). Otherwise this is a PTO: the period backs
 * off (quic_cong_pto_backoff())
 * and the space of the earliest PTO (or, for a client with nothing in
 * flight, the anti-deadlock space) gets %QUIC_OUTQ_PTO_PROBES probes: the
 * next ack-eliciting packets quic_outq_fill() builds at @level ignore the
 * congestion window and carry new data, else the oldest unacknowledged
 * frames, else a PING (Section 6.2.4). Client Initial
 * probes still need the caller's padding (&quic_outq_tx.min_len).
 *
 * Return: &enum quic_outq_timer.
 */
int quic_outq_loss_timeout(struct quic_outq *outq, u64 now, u8 *level)
{
	bool deadlock;
	u64 t, pto;
	u8 idx, hs;

	t = quic_outq_loss_time(outq, &idx);
	if (t) {
		/* A handshake PTO due before a loss time not reached yet. */
		if (t > now && quic_outq_hs_pto_first(outq, t, &pto, &hs) && pto <= now) {
			idx = hs;
			goto probe;
		}
		quic_outq_detect_lost(outq, idx, now);
		*level = idx;
		return QUIC_OUTQ_TIMER_LOSS;
	}
	/* The conditions of SetLossDetectionTimer(): no PTO when none is armed,
	 * nor before its time (a jiffies timer may fire early; the caller arms
	 * it again). The anti-deadlock PTO counts from when it was armed,
	 * which is not known here: its expiry is taken as due.
	 */
	t = quic_outq_timer(outq, now, &idx, &deadlock);
	if (!t || (t > now && !deadlock))
		return QUIC_OUTQ_TIMER_NONE;
probe:
	quic_outq_probe(outq, idx);
	quic_cong_pto_backoff(outq->cong);
	/* RFC 8899 Section 4.3: when even the probes of MAX_PROBES timeouts
	 * in a row get no acknowledgment, the path may have stopped carrying
	 * the PLPMTU (every full-size packet lost and none declared lost,
	 * for want of an ACK). The sender falls back to BASE_PLPMTU.
	 */
	if (idx == QUIC_CRYPTO_APP && quic_cong_pto_count(outq->cong) >= QUIC_PL_MAX_PROBES)
		outq->black_hole = 1;
	*level = idx;
	return QUIC_OUTQ_TIMER_PTO;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_loss_timeout);

/* Forget a space's sent packets (their bytes leave the window without
 * being lost, RFC 9002 Appendix B.9) and queued frames.
 */
static void quic_outq_space_clear(struct quic_outq *outq, u8 idx)
{
	struct quic_outq_space *sp = &outq->spaces[idx];
	struct quic_pnspace *space = &outq->pnspace[idx];
	struct quic_outq_packet *pkt, *tmp;

	list_for_each_entry_safe(pkt, tmp, &sp->sent, list) {
		list_del(&pkt->list);
		if (pkt->in_flight)
			quic_cong_on_packet_discarded(outq->cong, pkt->size);
		quic_outq_packet_free(outq, pkt);
	}
	quic_outq_frames_free(outq, &sp->ctrl);
	quic_outq_frames_free(outq, &sp->crypto);
	quic_outq_frames_free(outq, &sp->retrans);
	space->inflight = 0;
	space->loss_time = 0;
	space->last_sent_time = 0;
	sp->eliciting = 0;
	sp->ack_only = 0;
	sp->probe = 0;
}

/**
 * quic_outq_discard_space - the keys of a space were discarded
 * @outq: the queue
 * @level: QUIC_CRYPTO_INITIAL or QUIC_CRYPTO_HANDSHAKE (RFC 9001 Section 4.9)
 *
 * OnPacketNumberSpaceDiscarded() of RFC 9002 Appendix A.11 and Section 6.4:
 * the space's sent packets leave bytes in flight without being declared
 * lost (Appendix B.9), its queued frames are dropped, its loss time and
 * last send time are cleared and the PTO backoff is reset.
 */
void quic_outq_discard_space(struct quic_outq *outq, u8 level)
{
	if (level != QUIC_CRYPTO_INITIAL && level != QUIC_CRYPTO_HANDSHAKE)
		return;
	quic_outq_space_clear(outq, quic_pnspace_index(level));
	quic_cong_pto_reset(outq->cong);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_discard_space);

/*
 * Take the packets of @level in flight out of recovery: they leave the
 * bytes in flight without a congestion response (discarded, not lost,
 * RFC 9002 Section 6.4) and their frames go back to the front of their
 * space's queue, to be sent in new packets whose numbers go on from the
 * last one. The loss and PTO state of the space starts over.
 */
static void quic_outq_requeue(struct quic_outq *outq, u8 level)
{
	u8 idx = quic_pnspace_index(level);
	struct quic_outq_space *sp = &outq->spaces[idx];
	struct quic_outq_frame *fr, *ftmp;
	struct quic_outq_packet *pkt, *tmp;
	LIST_HEAD(requeue);

	list_for_each_entry_safe(pkt, tmp, &sp->sent, list) {
		if (pkt->level != level)
			continue;
		list_del(&pkt->list);
		quic_outq_unflight(outq, idx, pkt);
		if (pkt->in_flight)
			quic_cong_on_packet_discarded(outq->cong, pkt->size);
		list_for_each_entry_safe(fr, ftmp, &pkt->frames, list) {
			list_del(&fr->list);
			quic_outq_frame_lost(outq, fr, &requeue);
		}
		kfree(pkt);
	}
	list_splice(&requeue, &sp->retrans);
	outq->pnspace[idx].loss_time = 0;
	quic_cong_pto_reset(outq->cong);
}

/**
 * quic_outq_retry - a Retry arrived: send the Initial data again
 * @outq: the queue
 *
 * RFC 9002 Section 6.3 and RFC 9000 Section 17.2.5.3: the server processed
 * none of the Initial packets sent so far; they are discarded from
 * recovery and their frames sent again in new Initial packets.
 */
void quic_outq_retry(struct quic_outq *outq)
{
	quic_outq_requeue(outq, QUIC_CRYPTO_INITIAL);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_retry);

/**
 * quic_outq_early_rejected - the server rejected 0-RTT: resend it as 1-RTT
 * @outq: the queue
 *
 * RFC 9002 Section 6.4: "When 0-RTT is rejected, recovery state for all
 * in-flight 0-RTT packets is discarded." Their frames (stream data; a
 * DATAGRAM is not sent twice) go to the Application space's queue, which
 * only 1-RTT packets carry once the handshake is complete.
 */
void quic_outq_early_rejected(struct quic_outq *outq)
{
	quic_outq_requeue(outq, QUIC_CRYPTO_EARLY);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_early_rejected);

/**
 * quic_outq_abandon - an immediate close: nothing queued or in flight matters
 * @outq: the queue
 *
 * RFC 9000 Section 10.2: a CONNECTION_CLOSE implicitly resets every
 * stream. Every space forgets its sent packets and queued frames, and
 * stream and DATAGRAM data is dropped, so that the closing datagram is
 * all that is sent next and the window does not hold it back.
 */
void quic_outq_abandon(struct quic_outq *outq)
{
	u8 i;

	for (i = 0; i < QUIC_PNSPACE_MAX; i++)
		quic_outq_space_clear(outq, i);
	quic_outq_data_drop(outq);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_abandon);
