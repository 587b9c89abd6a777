/* troefclub: the scoring rules of one round, as the phone needs them for the rounds it
 * keeps while offline (issue 18).
 *
 * A port of scoring/rules/award.py `award` and scoring/rules/game.py `GameState.apply`
 * (points, the caller rotation and the game's end), nothing else: the server decides, with
 * the engine, when the round arrives; this only shows the running score of a round
 * "waiting to send". The page gets the competition's rule set and the game's state from
 * the server (`scoring.selectors.table.table_engine`, the #table element's data-engine).
 * tests/e2e/test_table_offline.py runs a table of cases made by the Python engine through
 * this file and compares every answer.
 *
 * Works in a page and in the service worker: it only defines `self.TableRules`.
 */
(function (root) {
  "use strict";

  // Base points, and whether they go to `side` (true) or to the other koppel (false).
  // RULES.md "Round results"; kap_te_vroeg's amount is the rule set's early_kap_penalty.
  var BASE = {
    gewone_winst: [2, true],
    kap: [5, true],
    kap_partner: [2, true],
    baunie: [15, true],
    baunie_mislukt: [2, false],
    redeal: [0, true],
  };

  function Violation(code) {
    this.code = code;
  }

  function other(side) {
    return side === "a" ? "b" : "a";
  }

  function to(side, amount) {
    return side === "a" ? [amount, 0] : [0, amount];
  }

  function bonusOn(rules) {
    return rules.stinkende_kap_bonus > 0 || rules.stinkende_baunie_bonus > 0;
  }

  /* Points of one round: [koppel a, koppel b]. `callerSide` "a"/"b" or null. */
  function award(result, side, rules, callerSide) {
    if (result === "kap_partner" && !rules.kap_partner_allowed) {
      throw new Violation("kap_partner_not_allowed");
    }
    if (result === "redeal" && !rules.redeal_allowed) {
      throw new Violation("redeal_not_allowed");
    }
    if (bonusOn(rules) && callerSide === null) {
      throw new Violation("caller_required_for_bonus");
    }
    if (result === "kap_te_vroeg") {
      return to(other(side), rules.early_kap_penalty);
    }
    if (!Object.prototype.hasOwnProperty.call(BASE, result)) {
      throw new Violation("result_unknown");
    }
    var amount = BASE[result][0];
    var toSide = BASE[result][1];
    if (toSide && callerSide !== null && callerSide !== side) {
      // A stinkende kap/baunie: made by the koppel that did not call.
      if (result === "kap" || result === "kap_partner") {
        amount += rules.stinkende_kap_bonus;
      } else if (result === "baunie") {
        amount += rules.stinkende_baunie_bonus;
      }
    }
    return to(toSide ? side : other(side), amount);
  }

  function finished(rules, state) {
    var target = rules.target_score;
    var reached = target !== null && Math.max(state.score[0], state.score[1]) >= target;
    var fixed = rules.fixed_rounds;
    return state.closed || reached || (fixed !== null && state.played >= fixed);
  }

  /* One round on `state` ({score: [a, b], rounds, played, caller: seat or null, closed}):
   * {state: the state after it, points: [a, b]}. `round` is {result, side, caller: the
   * caller's seat 1-4 or null}. Throws a Violation (its `code` as the engine's). */
  function apply(rules, state, round) {
    if (finished(rules, state)) {
      throw new Violation("game_finished");
    }
    var caller = round.caller;
    if (caller !== null && caller !== undefined) {
      if ([1, 2, 3, 4].indexOf(caller) < 0) {
        throw new Violation("caller_invalid");
      }
      if (state.caller !== null && caller !== state.caller) {
        throw new Violation("caller_out_of_turn");
      }
    } else if (rules.callers_required || bonusOn(rules)) {
      throw new Violation(bonusOn(rules) ? "caller_required_for_bonus" : "caller_required");
    } else {
      caller = state.caller; // not written down, but the rotation still says who called
    }
    var callerSide = caller === null ? null : caller % 2 === 1 ? "a" : "b";
    var points = award(round.result, round.side, rules, callerSide);
    var next = caller;
    if (caller !== null && round.result !== "redeal") {
      if (points[callerSide === "a" ? 0 : 1] === 0) {
        next = (caller % 4) + 1; // the caller's koppel did not score: calling passes left
      }
    }
    return {
      points: points,
      state: {
        score: [state.score[0] + points[0], state.score[1] + points[1]],
        rounds: state.rounds + 1,
        played: state.played + (round.result === "redeal" ? 0 : 1),
        caller: next,
        closed: state.closed,
      },
    };
  }

  /* The seat (1–4) of the player `callerId` among `seats` (the seated players' ids in
   * seat order, as the page's engine data gives them), or null: no caller, no seats. */
  function seatOf(seats, callerId) {
    if (!callerId || !seats) {
      return null;
    }
    var index = seats.indexOf(Number(callerId));
    return index < 0 ? null : index + 1;
  }

  root.TableRules = {
    apply: apply,
    award: award,
    finished: finished,
    seatOf: seatOf,
    Violation: Violation,
  };
})(self);
