"""Simulations per second of OpenSpiel's C++ MCTSBot from the empty board:
UCT with c = sqrt(2), one random rollout per simulation, one thread. Like
`bench mcts`: one search to warm up, then the median rate of `repeat`
searches (the machine is noisy)."""

import math
import statistics
import sys
import time

import pyspiel

game_name, simulations = sys.argv[1], int(sys.argv[2])
repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 5
game = pyspiel.load_game(game_name)
evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
bot = pyspiel.MCTSBot(game, evaluator, math.sqrt(2), simulations, 4096, False, 0, False)
state = game.new_initial_state()
bot.step(state)
rates = []
for _ in range(repeat):
    start = time.perf_counter()
    bot.step(state)
    rates.append(simulations / (time.perf_counter() - start))
print(statistics.median(rates))
