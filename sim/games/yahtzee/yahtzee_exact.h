// Yahtzee's exact odds: a strategy's final-score distribution (the fair die
// thrown forward through its turn tables, yahtzee_strategy_turns.h) and,
// because players never interact, the odds of every seat at any table from
// the seats' distributions alone: the highest score wins, equal highest
// scores share the win.
#pragma once

#include <vector>

#include "engine/table.h"
#include "games/yahtzee/yahtzee_strategy_turns.h"

namespace dicesim::yahtzee {

// P(final score = s) when `plan` is played with the fair die.
std::vector<double> score_distribution(const Rules& rules, const PlanOf& plan);

// Each seat's P(wins alone) and P(the win is shared), seats independent with
// these final-score distributions (the same length).
TableOdds highest_score_odds(const std::vector<const std::vector<double>*>& seats);

// Mean, standard deviation and the smallest score whose cumulative
// probability reaches q, of a distribution.
double mean_of(const std::vector<double>& p);
double sd_of(const std::vector<double>& p);
int quantile_of(const std::vector<double>& p, double q);

}  // namespace dicesim::yahtzee
