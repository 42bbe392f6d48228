"""Simulations per second of OpenSpiel's C++ MCTSBot from the empty board:
UCT with c = sqrt(2), one random rollout per simulation, one thread."""

import math
import sys
import time

import pyspiel

game_name, simulations = sys.argv[1], int(sys.argv[2])
game = pyspiel.load_game(game_name)
evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
bot = pyspiel.MCTSBot(game, evaluator, math.sqrt(2), simulations, 4096, False, 0, False)
state = game.new_initial_state()
start = time.perf_counter()
bot.step(state)
print(simulations / (time.perf_counter() - start))
